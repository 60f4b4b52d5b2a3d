/**
 * Which way a `q` search goes: through the engine's trigram index for words
 * rare in a large facility, asked the way that index takes it
 * (MemberSearch.indexAsks), or, with no index query, the facility's members
 * read in order. The facility's sample (member-search-sample.ts) tells
 * which words and which of their parts or trigrams are rare; it is taken
 * only for words the index can serve.
 */
import type { Executor } from '../../../db/database.js';
import { engineOf } from '../../../db/engine/engine.js';
import type { FacilitySample, IndexQuery } from '../../../db/engine/member-search.js';
import { chooseIndexedParts, sampleOfFacility } from './member-search-sample.js';
import { chooseTrigrams, matchEvery, trigramsOf } from './member-search-sqlite.js';
import { indexedTerm } from './member-search-term.js';

type Asks = IndexQuery['asks'];
type Planner<A extends Asks> = (
  words: string[],
  sample: () => Promise<FacilitySample>,
) => Promise<Extract<IndexQuery, { asks: A }> | undefined>;

const PLANNERS = {
  'term-parts': async (words, sample) => {
    const indexed = indexedTerm(words);
    const chosen = indexed === undefined ? undefined : chooseIndexedParts(await sample(), indexed);
    return chosen === undefined ? undefined : { asks: 'term-parts', ...chosen };
  },
  trigrams: async (words, sample) => {
    const trigrams = trigramsOf(words);
    const chosen = trigrams.length === 0 ? undefined : chooseTrigrams(await sample(), words, trigrams);
    return chosen === undefined ? undefined : { asks: 'trigrams', match: matchEvery(chosen), words };
  },
} satisfies { [A in Asks]: Planner<A> };

/** What to ask the index for the folded words of a `q`, or undefined when reading the facility's members in order costs less. */
export function chooseIndexQuery(
  db: Executor,
  facilityId: number,
  words: string[],
): Promise<IndexQuery | undefined> {
  if (words.length === 0) return Promise.resolve(undefined);
  return PLANNERS[engineOf(db).memberSearch.indexAsks](words, () => sampleOfFacility(db, facilityId));
}
