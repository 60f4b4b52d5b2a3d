import { hash } from 'node:crypto';
import fastJsonStringify from 'fast-json-stringify';
import type { Static, TSchema } from 'typebox';

/**
 * A resource's JSON text, exactly as it is sent, and the revision of that
 * text's form: a short hash of the schema it is written from, so that a
 * release that changes the representation changes every ETag of it.
 */
export type Representation<T> = ((value: T) => string) & { readonly revision: string };

/**
 * Compiles a resource schema into its serializer (fast-json-stringify, as
 * Fastify itself uses). Single resources are sent as this text.
 */
export function representationOf<T extends TSchema>(schema: T): Representation<Static<T>> {
  const serialize = fastJsonStringify(schema as object);
  const revision = hash('sha256', JSON.stringify(schema), 'base64url').slice(0, 8);
  return Object.assign((value: Static<T>) => serialize(value) as string, { revision });
}
