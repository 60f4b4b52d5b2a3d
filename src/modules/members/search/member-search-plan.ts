/**
 * Which way a `q` search goes: through the engine's trigram index for a
 * term rare in a large facility, asked the way that index takes it
 * (MemberSearch.indexAsks), or, with no index query, the facility's members
 * read in order. The facility's sample (member-search-sample.ts) tells
 * which terms and which of their parts or trigrams are rare; it is taken
 * only for a term the index can serve.
 */
import type { Executor } from '../../../db/database.js';
import { engineOf } from '../../../db/engine/engine.js';
import type { FacilitySample, IndexQuery } from '../../../db/engine/member-search.js';
import { chooseIndexedParts, sampleOfFacility } from './member-search-sample.js';
import { chooseTrigrams, matchEvery, trustedTrigrams } from './member-search-sqlite.js';
import { indexedTerm } from './member-search-term.js';

type Asks = IndexQuery['asks'];
type Planner<A extends Asks> = (
  q: string,
  sample: () => Promise<FacilitySample>,
) => Promise<Extract<IndexQuery, { asks: A }> | undefined>;

const PLANNERS = {
  'term-parts': async (q, sample) => {
    const indexed = indexedTerm(q);
    const chosen = indexed === undefined ? undefined : chooseIndexedParts(await sample(), indexed);
    return chosen === undefined ? undefined : { asks: 'term-parts', ...chosen };
  },
  trigrams: async (q, sample) => {
    const trigrams = trustedTrigrams(q);
    const chosen = trigrams.length === 0 ? undefined : chooseTrigrams(await sample(), q, trigrams);
    return chosen === undefined ? undefined : { asks: 'trigrams', match: matchEvery(chosen), q };
  },
} satisfies { [A in Asks]: Planner<A> };

/** What to ask the index for `q`, or undefined when reading the facility's members in order costs less. */
export function chooseIndexQuery(
  db: Executor,
  facilityId: number,
  q: string,
): Promise<IndexQuery | undefined> {
  return PLANNERS[engineOf(db).memberSearch.indexAsks](q, () => sampleOfFacility(db, facilityId));
}
