import { hash } from 'node:crypto';
import fastJsonStringify from 'fast-json-stringify';
import type { Static, TSchema } from 'typebox';

/**
 * A resource's JSON text, exactly as it is sent, and the revision of that
 * text's form: a short hash of the schema it is written from, so that a
 * release that changes the representation changes every ETag of it.
 */
export type Representation<T> = ((value: T) => string) & { readonly revision: string };

/** Words about a schema, not its form: changing them changes no ETag. */
const ANNOTATIONS = new Set(['description', 'examples', 'title', '$id']);

/**
 * Compiles a resource schema into its serializer (fast-json-stringify, as
 * Fastify itself uses). Single resources are sent as this text. `references`
 * are the named schemas it refers to (`$ref`), resolved here, when it is
 * compiled.
 */
export function representationOf<T extends TSchema>(
  schema: T,
  references: readonly TSchema[] = [],
): Representation<Static<T>> {
  const external = Object.fromEntries(references.map((named) => [(named as { $id: string }).$id, named]));
  const serialize = fastJsonStringify(schema as object, {
    schema: external as Record<string, fastJsonStringify.Schema>,
  });
  const form = JSON.stringify([schema, ...references].map(formOf));
  const revision = hash('sha256', form, 'base64url').slice(0, 8);
  return Object.assign((value: Static<T>) => serialize(value) as string, { revision });
}

/** The schema without its annotations; the names of properties are kept, whatever they are. */
function formOf(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(formOf);
  if (schema === null || typeof schema !== 'object') return schema;
  const form: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' || key === 'patternProperties') {
      form[key] = Object.fromEntries(
        Object.entries(value as object).map(([name, sub]) => [name, formOf(sub)]),
      );
    } else if (!ANNOTATIONS.has(key) && !key.startsWith('x-')) {
      form[key] = formOf(value);
    }
  }
  return form;
}
