import { Ajv, type ErrorObject } from 'ajv';
import addFormatsModule from 'ajv-formats';
import type { FastifyInstance, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import type { FieldError } from '../../core/errors.js';
import { NoQuery } from '../vocabulary/schemas.js';
import { textCharacterErrors } from './text-characters.js';

// ajv-formats is CommonJS; its default export arrives wrapped under ESM.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

/** Fields that the service sets; naming them in a body gets a specific message. */
const READ_ONLY_FIELDS = new Set([
  'id',
  'facility_id',
  'created_at',
  'updated_at',
  'deleted_at',
  'status_changed_at',
  // Set on create only; a PATCH that names it is told so.
  'template_id',
]);

type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: boolean | JsonSchema;
};

/**
 * Operations whose schema declares no query take none: `?foo=1` is 400
 * there too, not ignored. Registered before the API's routes.
 */
export function refuseUndeclaredQuery(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.schema !== undefined && route.schema.querystring === undefined) {
      route.schema = { ...route.schema, querystring: NoQuery };
    }
  });
}

/**
 * Bodies are validated strictly: no type coercion, no silently removed fields,
 * every problem reported. Path and query values arrive as text and are
 * converted by their schema type first, strictly: `1e3`, `0x10` or ` 5` are
 * not integers, and only `true`/`false` are booleans.
 */
const ajv = new Ajv({
  allErrors: true,
  coerceTypes: false,
  useDefaults: false,
  strict: false,
  // JSON cannot carry Infinity or NaN; 1e400 parses to Infinity and must not pass as a number.
  strictNumbers: true,
  // Errors carry their schema, so a pattern can explain itself (x-pattern-message).
  verbose: true,
});
addFormats(ajv);
const addedSchemas = new WeakSet<object>();

/** `named`: the schemas that routes refer to by `$id`, known to the validator before any route is compiled. */
export function createValidatorCompiler(named: readonly object[]): FastifySchemaCompiler<JsonSchema> {
  for (const schema of named) {
    // One validator serves every app of the process (tests build many): each schema is added once.
    if (!addedSchemas.has(schema)) ajv.addSchema(schema);
    addedSchemas.add(schema);
  }
  return ({ schema, httpPart }) => {
    const validate = ajv.compile(schema);
    if (httpPart === 'body') {
      return (data: unknown) => {
        const valid = validate(data);
        const text = textCharacterErrors(data, '');
        if (valid && text.length === 0) return { value: data };
        return { error: validationError([...(valid ? [] : (validate.errors ?? [])), ...text]) };
      };
    }
    const properties = schema.properties ?? {};
    // Path and query values that passed a schema of numbers and booleans only hold no text, so no NUL.
    const holdsOnlyNumbers =
      schema.additionalProperties === false &&
      Object.values(properties).every((property) =>
        ['integer', 'number', 'boolean'].includes(String(property.type)),
      );
    return (data: unknown) => {
      const converted = convertParameters(data, properties);
      const valid = validate(converted);
      if (valid && holdsOnlyNumbers) return { value: converted };
      const text = textCharacterErrors(converted, '');
      if (valid && text.length === 0) return { value: converted };
      return { error: validationError([...(valid ? [] : (validate.errors ?? [])), ...text]) };
    };
  };
}

function validationError(errors: ErrorObject[]) {
  return Object.assign(new Error('validation failed'), { validation: errors });
}

function convertParameters(data: unknown, properties: Record<string, JsonSchema>): unknown {
  if (data === null || typeof data !== 'object') return data;
  const converted: Record<string, unknown> = {};
  for (const name in data) {
    converted[name] = convertParameter((data as Record<string, unknown>)[name], properties[name]?.type);
  }
  return converted;
}

function convertParameter(raw: unknown, type: JsonSchema['type']): unknown {
  if (typeof raw !== 'string') return raw;
  if (type === 'integer') return /^-?\d{1,16}$/.test(raw) ? Number(raw) : raw;
  if (type === 'boolean') return raw === 'true' ? true : raw === 'false' ? false : raw;
  return raw;
}

const REQUEST_PARTS = ['params', 'querystring', 'headers', 'body'] as const;

/**
 * Every problem of the request, in every part. Fastify stops at the first
 * part that fails, so when one fails the error handler asks for all of them.
 */
export function collectRequestErrors(request: FastifyRequest): FieldError[] {
  const schemas = (request.routeOptions.schema ?? {}) as Record<string, JsonSchema | undefined>;
  const data: Record<(typeof REQUEST_PARTS)[number], unknown> = {
    params: request.params,
    querystring: request.query,
    headers: request.headers,
    body: request.body ?? null,
  };
  const errors: FieldError[] = [];
  for (const part of REQUEST_PARTS) {
    const schema = schemas[part];
    if (!schema) continue;
    const validate = ajv.compile(schema);
    const value = part === 'body' ? data.body : convertParameters(data[part], schema.properties ?? {});
    const found = [...(validate(value) ? [] : (validate.errors ?? [])), ...textCharacterErrors(value, '')];
    errors.push(...toFieldErrors(found, part));
  }
  return errors;
}

const LOCATIONS: Record<string, FieldError['location']> = {
  body: 'body',
  querystring: 'query',
  params: 'path',
  headers: 'header',
};

/** Turns ajv's errors into the contract's `errors[]`, one entry per problem. */
export function toFieldErrors(errors: ErrorObject[], context: string | undefined): FieldError[] {
  const location = LOCATIONS[context ?? 'body'] ?? 'body';
  const seen = new Set<string>();
  const result: FieldError[] = [];
  // An empty value also fails a "not blank" pattern; saying "must not be empty" once is enough.
  const empty = new Set(errors.filter((e) => e.keyword === 'minLength').map((e) => e.instancePath));
  for (const error of errors) {
    if (error.keyword === 'pattern' && empty.has(error.instancePath)) continue;
    const pointer = pointerOf(error);
    const field = location === 'body' ? pointer : pointer.replace(/^\//, '').replaceAll('/', '.');
    const message = messageOf(error);
    const id = `${field}\u0000${message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    result.push({ location, field, message });
  }
  return result;
}

function pointerOf(error: ErrorObject): string {
  const params = error.params as Record<string, string>;
  if (error.keyword === 'required') return `${error.instancePath}/${params.missingProperty}`;
  if (error.keyword === 'additionalProperties') {
    return `${error.instancePath}/${params.additionalProperty}`;
  }
  return error.instancePath;
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'pattern': {
      const explained = (error.parentSchema as Record<string, unknown> | undefined)?.['x-pattern-message'];
      return typeof explained === 'string' ? explained : `must match the pattern ${params.pattern}`;
    }
    case 'additionalProperties':
      return READ_ONLY_FIELDS.has(String(params.additionalProperty))
        ? 'is read-only'
        : 'is not a known field';
    case 'type': {
      const types = Array.isArray(params.type) ? params.type : String(params.type).split(',');
      return `must be ${types.map((t) => (t === 'integer' ? 'an integer' : t)).join(' or ')}`;
    }
    case 'enum':
      return `must be one of: ${(params.allowedValues as unknown[]).join(', ')}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must have at least ${params.limit} characters`;
    case 'maxLength':
      return `must have at most ${params.limit} characters`;
    case 'minimum':
      return `must be at least ${params.limit}`;
    case 'maximum':
      return `must be at most ${params.limit}`;
    case 'format':
      return `must be a valid ${params.format}`;
    default:
      return error.message ?? 'is not valid';
  }
}
