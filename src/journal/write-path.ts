import type { AppError } from '../core/errors.js';
import { assertIfMatch } from '../core/etag.js';
import type { WriteContext } from '../core/write-context.js';
import type { Db, Executor, Trx } from '../db/database.js';
import { type Change, inWriteTransaction, journalChange } from './journal.js';

/**
 * The one write path. A service says what changes; these own the rest of a
 * write, in one transaction: the lock and the 404 of the resource written,
 * the If-Match check against its current representation, the journal of
 * every change (audit entries and events, appended before COMMIT), and, for
 * a create, the stored answer to its Idempotency-Key.
 */
export interface Write {
  readonly trx: Executor;
  readonly context: WriteContext;
  /** When the write happens: the app's clock, the same for every date the write decides. */
  readonly now: Date;
  /** Journals one change of this write. */
  record(change: Change): void;
}

/** How a write finds the one resource it changes. */
export interface WriteTarget<R> {
  /** Reads the resource and locks it for the rest of the transaction; undefined when it does not exist. */
  lock(trx: Executor): Promise<R | undefined>;
  /** The problem when it does not exist (404). */
  notFound(): AppError;
  /** The ETag(s) of its current representation that an If-Match must name; none: If-Match does not apply. */
  etag?(current: R): string | string[];
}

/** A Write on a transaction the caller already holds (an import's chunk runs many). */
export function writeIn(trx: Executor, context: WriteContext): Write {
  return {
    trx,
    context,
    now: context.now,
    record: (change) => journalChange(trx, context, change),
  };
}

/** A write that is neither a create nor a change of one resource (an import chunk, the schedule). */
export async function write<T>(
  db: Db,
  context: WriteContext,
  work: (write: Write) => Promise<T>,
): Promise<T> {
  return inWriteTransaction(db, (trx: Trx) => work(writeIn(trx, context)));
}

/**
 * A create: the new resource, its journal and, with an Idempotency-Key, the
 * answer a retry gets, in one commit, so a crash cannot leave a created
 * resource that a retry would create again.
 */
export async function writeNew<T extends { id: number }>(
  db: Db,
  context: WriteContext<T>,
  create: (write: Write) => Promise<T>,
): Promise<T> {
  return inWriteTransaction(db, async (trx) => createIn(writeIn(trx, context), context, create));
}

/** A create inside a transaction the caller holds: its idempotency answer too. */
export async function createIn<T extends { id: number }>(
  write: Write,
  context: WriteContext<T>,
  create: (write: Write) => Promise<T>,
): Promise<T> {
  const created = await create(write);
  await context.onCreated?.(write.trx, created);
  return created;
}

/**
 * A change of one existing resource: locked (its 404 when missing), checked
 * against If-Match (412), then changed by `change`, which journals what it
 * changed through `write.record`.
 */
export async function writeExisting<R, T>(
  db: Db,
  context: WriteContext,
  target: WriteTarget<R>,
  change: (write: Write, current: R) => Promise<T>,
): Promise<T> {
  return inWriteTransaction(db, (trx) => changeIn(writeIn(trx, context), target, change));
}

/** writeExisting inside a transaction the caller holds. */
export async function changeIn<R, T>(
  write: Write,
  target: WriteTarget<R>,
  change: (write: Write, current: R) => Promise<T>,
): Promise<T> {
  const current = await target.lock(write.trx);
  // A resource that does not exist is 404 whatever the If-Match (docs/decisions.md).
  if (current === undefined) throw target.notFound();
  if (target.etag) assertIfMatch(write.context.ifMatch, target.etag(current));
  return change(write, current);
}
