import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv, type ErrorObject } from 'ajv';
import { Type } from 'typebox';
import { PlanTemplate, TEMPLATE_REFERENCES } from './template.schemas.js';

/**
 * The read-only template catalog: a JSON file shipped with the service
 * (data/plan-templates.json) or an operator's own (TEMPLATES_FILE), validated
 * at start and then served from memory, ordered by id.
 */
export interface TemplateCatalog {
  list(filter: { sportId?: number; afterId: number; limit: number }): PlanTemplate[];
  findById(id: number): PlanTemplate | undefined;
}

export const DEFAULT_TEMPLATES_FILE = fileURLToPath(
  new URL('../../../data/plan-templates.json', import.meta.url),
);

const CatalogFile = Type.Object({ templates: Type.Array(PlanTemplate) }, { additionalProperties: false });

/** How many problems one error message lists at most. */
const MAX_LISTED_PROBLEMS = 10;

/** A template file that cannot be served; the message names the file and every problem found. */
export class TemplateCatalogError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemplateCatalogError';
  }
}

export function loadTemplateCatalog(file: string = DEFAULT_TEMPLATES_FILE): TemplateCatalog {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TemplateCatalogError(`Cannot read the template file ${file}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    // Editors on some systems write a byte order mark, which JSON.parse rejects.
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch (error) {
    throw new TemplateCatalogError(
      `The template file ${file} is not valid JSON: ${(error as Error).message}`,
    );
  }
  const validate = new Ajv({ allErrors: true, strict: false, schemas: TEMPLATE_REFERENCES }).compile(
    CatalogFile,
  );
  if (!validate(parsed)) throw invalidFile(file, (validate.errors ?? []).map(describeAjvError));

  const raw = (parsed as { templates: PlanTemplate[] }).templates;
  const problems = [...findDuplicateIds(raw), ...raw.flatMap((t, i) => checkTemplate(t, i))];
  if (problems.length > 0) throw invalidFile(file, problems);

  const templates = raw
    .map((t) =>
      deepFreeze({
        ...t,
        entitlements: [...t.entitlements].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)),
      }),
    )
    .sort((a, b) => a.id - b.id);
  const byId = new Map(templates.map((t) => [t.id, t]));
  return {
    list: ({ sportId, afterId, limit }) => {
      const page: PlanTemplate[] = [];
      for (const template of templates) {
        if (template.id <= afterId) continue;
        if (sportId !== undefined && template.sport_id !== sportId) continue;
        page.push(template);
        if (page.length === limit) break;
      }
      return page;
    },
    findById: (id) => byId.get(id),
  };
}

function invalidFile(file: string, problems: string[]): TemplateCatalogError {
  const listed = problems.slice(0, MAX_LISTED_PROBLEMS).map((p) => `  ${p}`);
  if (problems.length > MAX_LISTED_PROBLEMS) {
    listed.push(`  ... and ${problems.length - MAX_LISTED_PROBLEMS} more`);
  }
  return new TemplateCatalogError(`The template file ${file} is not valid:\n${listed.join('\n')}`);
}

function describeAjvError(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  const at = error.instancePath || '/';
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}: unknown field "${String(params.additionalProperty)}"`;
    case 'required':
      return `${at}: missing field "${String(params.missingProperty)}"`;
    case 'enum':
      return `${at}: must be one of ${(params.allowedValues as unknown[]).join(', ')}`;
    default:
      return `${at}: ${error.message ?? 'is not valid'}`;
  }
}

function findDuplicateIds(templates: PlanTemplate[]): string[] {
  const seen = new Set<number>();
  const reported = new Set<number>();
  const problems: string[] = [];
  for (const template of templates) {
    if (seen.has(template.id) && !reported.has(template.id)) {
      reported.add(template.id);
      problems.push(`/templates: more than one template has the same id ${template.id}`);
    }
    seen.add(template.id);
  }
  return problems;
}

/** Rules the schema cannot say: a plan created from the template must be valid too. */
function checkTemplate(template: PlanTemplate, index: number): string[] {
  const at = `/templates/${index}`;
  const problems: string[] = [];
  if (template.name.trim() === '') problems.push(`${at}/name: must not be blank`);
  const keys = new Set<string>();
  template.entitlements.forEach((entitlement, i) => {
    if (keys.has(entitlement.key)) {
      problems.push(`${at}/entitlements/${i}/key: "${entitlement.key}" appears twice`);
    }
    keys.add(entitlement.key);
    if (typeof entitlement.value === 'number' && !Number.isFinite(entitlement.value)) {
      problems.push(`${at}/entitlements/${i}/value: must be a finite number`);
    }
  });
  return problems;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}
