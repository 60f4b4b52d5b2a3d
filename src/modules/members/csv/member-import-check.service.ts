import type { Clock } from '../../../core/clock.js';
import type { Db, Executor } from '../../../db/database.js';
import { isUniqueViolation } from '../../../db/errors.js';
import { planQueriesPerCall } from '../../../db/transaction-planning.js';
import { inSavepoint, inWriteTransaction } from '../../../journal/journal.js';
import { readPolicySettings } from '../../policy/policy.service.js';
import { countSeatsOfCappedPlans, updateMember } from '../member.repository.js';
import { type ChunkSettings, forEachChunk, inRowAttempts, type RowQueue } from './member-import-chunks.js';
import type { ImportTotals } from './member-import-report.js';
import { emptyTally, importRow, type RowHooks, type RowJob } from './member-import-row.service.js';

/** Ends a chunk of the check: its writes were only tried. */
class RolledBack extends Error {}

type KeyColumn = 'email' | 'external_id';
const keyOf = (column: KeyColumn, value: string) =>
  `${column}:${column === 'email' ? value.trim().toLowerCase() : value.trim()}`;

/**
 * What later chunks of a check must still see of the earlier ones, whose
 * writes were rolled back: the seats of capped plans their rows took or gave
 * up, and the emails and external_ids their rows changed away from a
 * member, which a later row may then take. (The rows' own keys need no
 * carrying: FileKeys refuses a key an earlier row named.)
 */
class CheckCarry {
  /** The import's clock: the time a freed key's earlier holder is changed at. */
  readonly #now: Clock;
  readonly #seats = new Map<number, number>();
  /** A key an earlier chunk's row changed away from a member: that member and the value it then had. */
  readonly #freed = new Map<string, { memberId: number; column: KeyColumn; value: string | null }>();
  /** Keys this chunk's rows freed: carried once its attempt has run to its end. */
  #freedInChunk: [string, { memberId: number; column: KeyColumn; value: string | null }][] = [];
  /** The freed keys made visible in this chunk's transaction. */
  readonly #applied = new Set<string>();

  constructor(now: Clock) {
    this.#now = now;
  }

  seatsTakenElsewhere = (planId: number) => this.#seats.get(planId) ?? 0;

  /** A chunk's attempt begins: a fresh transaction, in which no freed key is visible yet. */
  startAttempt(): void {
    this.#applied.clear();
    this.#freedInChunk = [];
  }

  /** A chunk's attempt ran all its rows: what they did is carried to the next chunks. */
  endAttempt(seatsBefore: Map<number, number>, seatsAfter: Map<number, number>): void {
    for (const [key, freed] of this.#freedInChunk) this.#freed.set(key, freed);
    for (const plan of new Set([...seatsBefore.keys(), ...seatsAfter.keys()])) {
      const taken = (seatsAfter.get(plan) ?? 0) - (seatsBefore.get(plan) ?? 0);
      if (taken !== 0) this.#seats.set(plan, this.seatsTakenElsewhere(plan) + taken);
    }
  }

  readonly hooks: RowHooks = {
    beforeRow: async (trx, cells) => {
      for (const column of ['email', 'external_id'] as const) {
        if (cells[column]?.trim()) await this.#apply(trx, keyOf(column, cells[column]));
      }
    },
    written: ({ memberId, match, after }) => {
      if (match === undefined) return;
      for (const column of ['email', 'external_id'] as const) {
        const was = match[column];
        if (was !== null && (after[column] === null || keyOf(column, after[column]) !== keyOf(column, was))) {
          this.#freedInChunk.push([keyOf(column, was), { memberId, column, value: after[column] }]);
        }
      }
    },
  };

  /** Gives the freed key's earlier holder, in this transaction, the value an earlier chunk gave it. */
  async #apply(trx: Executor, key: string): Promise<void> {
    const freed = this.#freed.get(key);
    if (freed === undefined || this.#applied.has(key)) return;
    this.#applied.add(key);
    // The value it took may itself have been freed by a still earlier row: that one first.
    if (freed.value !== null) await this.#apply(trx, keyOf(freed.column, freed.value));
    // Someone else may have taken the value since: the check then sees the facility as it is.
    const change = { [freed.column]: freed.value };
    await inSavepoint(trx, () => updateMember(trx, freed.memberId, change, this.#now().toISOString())).catch(
      (error) => {
        if (!isUniqueViolation(error)) throw error;
      },
    );
  }
}

/**
 * Tries every row as the real run would write it, in chunks whose
 * transactions are rolled back, and adds what they did to `totals`; nothing
 * is written, journaled or sent. `onChunk` follows each chunk (progress).
 * Its answer is the real run's as long as nobody else changes the facility
 * in between (docs/api-usage.md, "What a dry run guarantees").
 */
export async function checkRows(
  db: Db,
  job: RowJob,
  rows: RowQueue,
  totals: ImportTotals,
  settings: ChunkSettings,
  onChunk: () => Promise<void>,
): Promise<void> {
  const carry = new CheckCarry(settings.clock);
  const isolation = { next: false };
  await forEachChunk(rows, settings, async (next) => {
    let tally = emptyTally();
    await inRowAttempts(next, job.keys, isolation, async (take, isolated) => {
      tally = emptyTally();
      carry.startAttempt();
      try {
        // The journal is appended when the work returns: thrown out of, it never is.
        await inWriteTransaction(db, async (trx) => {
          await planQueriesPerCall(trx);
          const policy = await readPolicySettings(trx, job.facilityId);
          const seatsBefore = await countSeatsOfCappedPlans(trx, job.facilityId);
          const context = {
            ...job.context,
            now: settings.clock(),
            seatsTakenElsewhere: carry.seatsTakenElsewhere,
          };
          const chunkJob = { ...job, context };
          for (let row = take(); row !== undefined; row = take()) {
            await importRow(trx, chunkJob, policy, row, tally, carry.hooks, isolated);
          }
          carry.endAttempt(seatsBefore, await countSeatsOfCappedPlans(trx, job.facilityId));
          throw new RolledBack();
        });
      } catch (error) {
        if (!(error instanceof RolledBack)) throw error;
      }
    });
    totals.add(tally);
    await onChunk();
  });
}
