import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import fc from 'fast-check';
import { describeEachDialect } from '../../../../test/harness.js';
import { SMALL_FACILITY } from './member-search-sample.js';
import { foldForSearch, queryWords, searchTextOf } from './member-search-text.js';

/**
 * Whatever way a search goes (in order, or through the trigram index on
 * either database), its answers are those of the word rule: a member is
 * found when every word of the term, folded (lower case, no accents), is in
 * its folded first name, last name, email, phone digits or external id. So
 * both databases give the same answers. Checked on a facility of random
 * members with accented names, large enough for the index to serve rare
 * terms, some renamed and some removed after they were indexed, against a
 * model of the rule, with random terms: pieces of the members' own fields in
 * random case, with and without their accents, and random strings.
 */
const SEED = 32;
/** Letters with and without accents, in both cases, and the characters around words. */
const NAME_CHARACTERS = [...'aAbBeEnNoOsS', 'é', 'É', 'ö', 'Ö', 'ü', 'Ü', 'ë', 'ß', 'ñ', ...'12 .-'];
const EMAIL_CHARACTERS = [...'abenoABENO12-'];

interface Modelled {
  id: number;
  first_name: string;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  external_id: string | null;
  status: string;
}

const text = (characters: string[], minLength: number, maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...characters), minLength, maxLength });
const memberArbitrary = fc.record({
  first_name: text(NAME_CHARACTERS, 1, 12).filter((name) => name.trim() !== ''),
  last_name: fc.option(text(NAME_CHARACTERS, 1, 12)),
  email: fc.option(fc.tuple(text(EMAIL_CHARACTERS, 1, 8), text([...'abeno12'], 1, 4))),
  phone: fc.option(text([...'0123456789 -+'], 1, 12).filter((phone) => /\d/.test(phone))),
  external_id: fc.option(text([...'ABOLD0123-ü'], 1, 8)),
  pending: fc.boolean(),
});

const foundByRule = (member: Modelled, term: string) => {
  const text = searchTextOf(member);
  return queryWords(term).every((word) => text.includes(word));
};

describeEachDialect('member search answers as the substring rule, on random members', (api) => {
  let membersUrl = '';
  const members = new Map<number, Modelled>();

  async function addMembers(count: number) {
    const drawn = fc.sample(memberArbitrary, { numRuns: count, seed: SEED });
    for (let start = 0; start < drawn.length; start += 50) {
      await Promise.all(
        drawn
          .slice(start, start + 50)
          .map(async ({ first_name, last_name, email, phone, external_id, pending }, offset) => {
            const body = {
              first_name,
              last_name,
              phone,
              // The index keeps emails and external ids unique in a facility.
              email: email === null ? null : `${email[0]}${start + offset}@${email[1]}.org`,
              external_id: external_id === null ? null : `${external_id}${start + offset}`,
              ...(pending ? { status: 'pending' } : {}),
            };
            const response = await api.post(membersUrl, body);
            assert.equal(response.status, 201, response.text);
            members.set(response.body.id, response.body);
          }),
      );
    }
  }

  async function searchAll(query: string): Promise<number[]> {
    const found: number[] = [];
    let cursor: string | null = null;
    do {
      const page = await api.get(`${membersUrl}?${query}${cursor === null ? '' : `&cursor=${cursor}`}`);
      assert.equal(page.status, 200, page.text);
      found.push(...page.body.members.map((member: { id: number }) => member.id));
      cursor = page.body.next_cursor;
    } while (cursor !== null);
    return found;
  }

  before(async () => {
    membersUrl = `/admin/facilities/${api.newFacility()}/members`;
    await addMembers(SMALL_FACILITY + 100);
    const ids = [...members.keys()];
    // Renamed after they were indexed: the old names must no longer find them.
    for (const id of ids.filter((_, i) => i % 37 === 0)) {
      const renamed = fc.sample(memberArbitrary, { numRuns: 1, seed: id })[0];
      const response = await api.patch(`${membersUrl}/${id}`, {
        first_name: renamed.first_name,
        last_name: renamed.last_name,
        phone: renamed.phone,
        email: renamed.email === null ? null : `${renamed.email[0]}r${id}@${renamed.email[1]}.org`,
      });
      assert.equal(response.status, 200, response.text);
      members.set(id, response.body);
    }
    for (const id of ids.filter((_, i) => i % 41 === 1)) {
      assert.equal((await api.delete(`${membersUrl}/${id}`)).status, 204);
      members.set(id, { ...(members.get(id) as Modelled), status: 'removed' });
    }
  });

  const pieceOfAMember = fc
    .tuple(
      fc.nat(),
      fc.constantFrom('first_name', 'last_name', 'email', 'phone', 'external_id'),
      fc.nat(),
      fc.integer({ min: 1, max: 14 }),
    )
    .map(([pick, field, from, length]) => {
      const all = [...members.values()];
      const value = all[pick % all.length][field as 'first_name'] ?? 'x';
      const start = from % value.length;
      return value.slice(start, start + length);
    });
  const randomCase = (term: fc.Arbitrary<string>) =>
    fc
      .tuple(term, fc.array(fc.boolean(), { minLength: 20, maxLength: 20 }))
      .map(([value, upper]) =>
        Array.from(value, (c, i) => (upper[i % 20] ? c.toUpperCase() : c.toLowerCase())).join(''),
      );
  const withoutAccents = (term: fc.Arbitrary<string>) => term.map(foldForSearch);
  const severalPieces = fc
    .array(randomCase(pieceOfAMember), { minLength: 2, maxLength: 3 })
    .map((pieces) => pieces.join(' '));
  const terms = fc
    .oneof(
      randomCase(pieceOfAMember),
      withoutAccents(pieceOfAMember),
      severalPieces,
      text([...NAME_CHARACTERS, '@', 'r'], 1, 6),
    )
    .filter((term) => term !== '');

  test('q finds exactly the members whose folded fields contain every folded word of the term', async () => {
    await fc.assert(
      fc.asyncProperty(terms, fc.boolean(), async (term, withRemoved) => {
        const statuses = withRemoved ? '&status=removed,pending' : '';
        const found = await searchAll(`q=${encodeURIComponent(term)}${statuses}`);
        const expected = [...members.values()]
          .filter((member) =>
            withRemoved ? ['removed', 'pending'].includes(member.status) : member.status !== 'removed',
          )
          .filter((member) => foundByRule(member, term))
          .map((member) => member.id)
          .sort((a, b) => a - b);
        assert.deepEqual(found, expected, `q=${JSON.stringify(term)}${statuses}`);
      }),
      { numRuns: 150, seed: SEED },
    );
  });
});
