import type { Client as FetchClient } from 'openapi-fetch';
import type { operations, paths } from './schema.js';

/** The typed fetch every operation is sent with. */
export type Api = FetchClient<paths>;

/** Options of a create: the Idempotency-Key to send (a new UUID per call by default). */
export interface CreateOptions {
  idempotencyKey?: string;
}

/** Options of an update: the ETag the resource must still have (412 `precondition_failed` if not). */
export interface WriteOptions {
  ifMatch?: string;
}

export interface DeleteOptions extends WriteOptions {
  /** Remove for good instead of archiving (plans) or marking removed (members). */
  hardDelete?: boolean;
}

/** The query parameters of a list operation. */
export type Query<K extends keyof operations> = NonNullable<operations[K]['parameters']['query']>;

export const facility = (facility_id: number) => ({ path: { facility_id } });

export const ifMatch = (write: WriteOptions = {}) =>
  write.ifMatch === undefined ? {} : { 'if-match': write.ifMatch };

export const idempotency = (create: CreateOptions = {}) =>
  create.idempotencyKey === undefined ? {} : { 'idempotency-key': create.idempotencyKey };

export const hard = (remove: DeleteOptions = {}) => (remove.hardDelete ? { hard_delete: true } : {});
