/**
 * The operations of the API as the service documents them: the cross-cutting
 * suites (test/access-matrix.test.ts, test/http-derived-rules.test.ts,
 * test/robustness.test.ts) enumerate these, never a list of their own, so an
 * operation is covered the day it is added. The document is the one the app
 * serves (`app.swagger()`, GET /openapi.json), built once per test file at
 * import, before any suite registers its tests.
 */
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

// biome-ignore lint/suspicious/noExplicitAny: the document is arbitrary JSON
type Json = any;

export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

export interface QueryParameter {
  name: string;
  /** The schema's type: 'integer', 'boolean', 'string', … */
  type: string;
  enum?: string[];
}

export interface Operation {
  operationId: string;
  method: (typeof HTTP_METHODS)[number];
  /** The path as documented, with `{name}` for each path parameter. */
  path: string;
  pathParameters: string[];
  query: QueryParameter[];
  /** The media types of the request body; empty when the operation takes none. */
  bodyTypes: string[];
  /** The document's example body (of the first media type), when it gives one. */
  bodyExample: unknown;
  /** The body schema's properties, $refs resolved; empty when there is no JSON body. */
  bodyFields: string[];
  /** The documented statuses ('200', '4XX', …). */
  responses: string[];
  /** False for the operations anyone may call (security: []): the health checks. */
  secured: boolean;
  tags: string[];
  /** The roles that may call it (x-roles), for a secured operation. */
  roles: string[] | undefined;
}

/** The document the app serves with the default settings (no BASE_PATH). */
export async function servedDocument(): Promise<Json> {
  const app = await buildApp(
    { ...loadConfig({}), databaseUrl: 'sqlite::memory:', console: false },
    { logger: false },
  );
  try {
    return structuredClone(app.swagger());
  } finally {
    await app.close();
  }
}

function resolve(document: Json, schema: Json): Json {
  let resolved = schema;
  while (resolved?.$ref) {
    const path = String(resolved.$ref).replace(/^#\//, '').split('/');
    resolved = path.reduce((node: Json, part: string) => node?.[part], document);
  }
  return resolved;
}

/** Every operation of the document, in its order. */
export function operationsOf(document: Json): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(document.paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item[method.toLowerCase()];
      if (!operation) continue;
      const parameters: Json[] = [...(item.parameters ?? []), ...(operation.parameters ?? [])];
      const content: Record<string, Json> = operation.requestBody?.content ?? {};
      const bodyTypes = Object.keys(content);
      const first = content[bodyTypes[0]];
      const bodySchema = resolve(document, content['application/json']?.schema);
      operations.push({
        operationId: operation.operationId,
        method,
        path,
        pathParameters: [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]),
        query: parameters
          .filter((parameter) => parameter.in === 'query')
          .map((parameter) => {
            const schema = resolve(document, parameter.schema);
            return { name: parameter.name, type: String(schema?.type ?? 'string'), enum: schema?.enum };
          }),
        bodyTypes,
        bodyExample: first?.example ?? first?.examples?.[Object.keys(first.examples)[0]]?.value,
        bodyFields: Object.keys(bodySchema?.properties ?? {}),
        responses: Object.keys(operation.responses ?? {}),
        secured: !(Array.isArray(operation.security) && operation.security.length === 0),
        tags: operation.tags ?? [],
        roles: operation['x-roles'],
      });
    }
  }
  return operations;
}

/** The documented success statuses of an operation (2xx). */
export function successStatuses(operation: Operation): number[] {
  return operation.responses.filter((status) => /^2\d\d$/.test(status)).map(Number);
}

/** The methods the document serves on a path, with HEAD beside GET, as an Allow header names them. */
export function allowedMethods(operations: readonly Operation[], path: string): string[] {
  const methods = operations
    .filter((operation) => operation.path === path)
    .map((operation) => operation.method);
  return [...methods, ...(methods.includes('GET') ? ['HEAD'] : [])].sort();
}

/** Takes a JSON body: application/json is among its media types. */
export const takesJson = (operation: Operation) => operation.bodyTypes.includes('application/json');

export const DOCUMENT: Json = await servedDocument();
export const OPERATIONS: readonly Operation[] = operationsOf(DOCUMENT);
