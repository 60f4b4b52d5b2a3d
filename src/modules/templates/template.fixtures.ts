/** Fixtures shared by the template tests: the shipped catalog, an operator's file, files to load. */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { DEFAULT_TEMPLATES_FILE } from './template.catalog.js';

export const TEMPLATES_URL = '/admin/plan-templates';
export const TEMPLATE_FIELDS = [
  'billing_period',
  'currency',
  'description',
  'duration_days',
  'entitlements',
  'id',
  'name',
  'price_amount',
  'sport_id',
];
export const BILLING_PERIODS = ['one_time', 'weekly', 'monthly', 'quarterly', 'yearly'];

export interface RawTemplate {
  id: number;
  sport_id: number | null;
  entitlements: { key: string; value: unknown }[];
  [field: string]: unknown;
}

/** What the service must serve for a file: ordered by id, entitlements sorted by key. */
export function expectedListing(templates: RawTemplate[]): RawTemplate[] {
  return [...templates]
    .map((t) => ({ ...t, entitlements: [...t.entitlements].sort((a, b) => (a.key < b.key ? -1 : 1)) }))
    .sort((a, b) => a.id - b.id);
}

export const shipped: RawTemplate[] = JSON.parse(readFileSync(DEFAULT_TEMPLATES_FILE, 'utf8')).templates;

export const workDir = mkdtempSync(join(tmpdir(), 'facility-admin-templates-'));
after(() => rmSync(workDir, { recursive: true, force: true }));

let fileCounter = 0;
export function writeCatalogFile(content: unknown): string {
  const file = join(workDir, `catalog-${++fileCounter}.json`);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

export function validTemplate(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id: 1,
    name: 'Padel monthly',
    description: 'Court booking for padel',
    sport_id: 40,
    billing_period: 'monthly',
    price_amount: 4500,
    currency: 'EUR',
    duration_days: null,
    entitlements: [{ key: 'court_hours', value: 8 }],
    ...overrides,
  };
}

/** The operator's own catalog, deliberately not ordered by id and with unsorted entitlements. */
export const operatorTemplates: RawTemplate[] = [
  {
    id: 900,
    name: 'Squash evening',
    description: null,
    sport_id: 77,
    billing_period: 'weekly',
    price_amount: 1200,
    currency: 'GBP',
    duration_days: 30,
    entitlements: [
      { key: 'zeta', value: 'last' },
      { key: 'Alpha', value: true },
      { key: 'court_hours', value: 2.5 },
    ],
  },
  {
    id: 7,
    name: 'Rowing club yearly',
    description: 'Boat access all year',
    sport_id: 78,
    billing_period: 'yearly',
    price_amount: 0,
    currency: 'EUR',
    duration_days: 3650,
    entitlements: [],
  },
  {
    id: 42,
    name: 'Squash day pass',
    description: 'One day',
    sport_id: 77,
    billing_period: 'one_time',
    price_amount: 100_000_000,
    currency: 'JPY',
    duration_days: 1,
    entitlements: [{ key: 'guest_passes', value: 0 }],
  },
];
export const operatorFile = writeCatalogFile({ templates: operatorTemplates });
