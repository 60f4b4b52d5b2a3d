import type { Executor } from '../db/database.js';
import { type Principal, servicePrincipal } from './principal.js';

/** What every write needs besides its input: who asks (for the audit trail) and its precondition. */
export interface WriteContext<T = { id: number }> {
  principal: Principal;
  /** The request that asked; null for a change the service makes by itself (the schedule). */
  requestId: string | null;
  /** When the write happens, from the app's clock (one clock for every date a write decides). */
  now: Date;
  /** The If-Match header, checked against the current representation inside the transaction. */
  ifMatch?: string;
  /**
   * Called by a create inside its transaction with the new resource: the
   * answer to an Idempotency-Key is stored in the same commit, so a crash
   * cannot leave a created resource that a retry would create again.
   */
  onCreated?(trx: Executor, created: T): Promise<void>;
  /**
   * Seats of a plan that rows tried in earlier transactions took (or gave
   * up, negative) and that this transaction cannot see: a dry run's chunks
   * are rolled back, and its later rows must still count the earlier ones.
   */
  seatsTakenElsewhere?(planId: number): number;
}

/**
 * The context of the changes the service makes by itself (the schedule, the
 * first start's admin key): audited with actor `system`.
 */
export function systemWriteContext(now: Date): WriteContext {
  return {
    principal: servicePrincipal('system'),
    requestId: null,
    now,
  };
}

/** The context of the changes made with the `facility-admin` command (API keys): audited with actor `cli`. */
export function commandLineWriteContext(now: Date): WriteContext {
  return {
    principal: servicePrincipal('cli'),
    requestId: null,
    now,
  };
}
