import fastJsonStringify from 'fast-json-stringify';
import type { Static, TSchema } from 'typebox';

/** A resource's JSON text, exactly as it is sent: the body its ETag is computed from. */
export type Representation<T> = (value: T) => string;

/**
 * Compiles a resource schema into its serializer (fast-json-stringify, as
 * Fastify itself uses). Single resources are sent as this text, so the ETag
 * is the hash of the very bytes a client receives, and an If-Match check
 * inside a write serializes the stored row the same way.
 */
export function representationOf<T extends TSchema>(schema: T): Representation<Static<T>> {
  const serialize = fastJsonStringify(schema as object);
  return (value) => serialize(value) as string;
}
