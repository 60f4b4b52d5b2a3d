import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv } from 'ajv';
import { Type } from 'typebox';
import { Template } from './template.schemas.js';

/**
 * The read-only template catalog: a JSON file shipped with the service
 * (data/plan-templates.json) or an operator's own (TEMPLATES_FILE), validated
 * at start and then served from memory, ordered by id.
 */
export interface TemplateCatalog {
  list(filter: { sportId?: number; afterId: number; limit: number }): Template[];
  findById(id: number): Template | undefined;
}

export const DEFAULT_TEMPLATES_FILE = fileURLToPath(
  new URL('../../../data/plan-templates.json', import.meta.url),
);

const CatalogFile = Type.Object({ templates: Type.Array(Template) }, { additionalProperties: false });

export class TemplateCatalogError extends Error {}

export function loadTemplateCatalog(file: string = DEFAULT_TEMPLATES_FILE): TemplateCatalog {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new TemplateCatalogError(`Cannot read the template file ${file}: ${(error as Error).message}`);
  }
  const validate = new Ajv({ allErrors: true, strict: false }).compile(CatalogFile);
  if (!validate(parsed)) {
    const problems = (validate.errors ?? [])
      .slice(0, 10)
      .map((e) => `  ${e.instancePath || '/'} ${e.message}`)
      .join('\n');
    throw new TemplateCatalogError(`The template file ${file} is not valid:\n${problems}`);
  }
  const templates = (parsed as { templates: Template[] }).templates
    .map((t) => ({ ...t, entitlements: [...t.entitlements].sort((a, b) => (a.key < b.key ? -1 : 1)) }))
    .sort((a, b) => a.id - b.id);
  const byId = new Map(templates.map((t) => [t.id, t]));
  if (byId.size !== templates.length) {
    throw new TemplateCatalogError(`The template file ${file} has two templates with the same id`);
  }
  return {
    list: ({ sportId, afterId, limit }) => {
      const page: Template[] = [];
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
