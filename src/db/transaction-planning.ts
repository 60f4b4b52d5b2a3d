import { engineOf } from './engine/engine.js';
import type { Executor } from './engine/executor.js';

/**
 * Plans every query of this transaction on every call, where the engine
 * keeps plans: for a transaction that grows a table under its own queries
 * (an import), whose plans chosen while the table was small would make each
 * row cost more than the last. It ends with the transaction.
 */
export async function planQueriesPerCall(trx: Executor): Promise<void> {
  await engineOf(trx).planQueriesPerCall(trx);
}
