/**
 * Which words PostgreSQL's trigram index (migration 0041) serves, by which
 * parts, which way a sample of the facility sends a search, and how much of
 * the index a search reads: counted in index pages from the query's own
 * plan, not timed. The members are the benchmark's, whose emails all end in
 * `.f1@example.com`, as real addresses share `gmail.com`.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import { LARGE_FACILITY, seed, seededEmail } from '../../../../bench/seed.js';
import { createTestDatabase, DIALECTS } from '../../../../test/harness.js';
import { type Database, openDatabase } from '../../../db/database.js';
import { asNamedStatement } from '../../../db/postgres/named-statements.js';
import { listMembers } from '../member-list.repository.js';
import { chooseIndexedParts, SMALL_FACILITY } from './member-search-sample.js';
import { indexedParts, indexedTerm } from './member-search-term.js';

const MEMBERS = 100_000;

test('the index is asked for each run of letters and digits with the characters around it', () => {
  assert.deepEqual(indexedParts('m5.f1@example.com'), ['m5.', '.f1@', '@example.', '.com']);
  assert.deepEqual(indexedParts('ann lee'), ['ann ', ' lee']);
  assert.deepEqual(indexedParts('abc abc'), ['abc ', ' abc']);
  // `a.` has no trigram: pg_trgm pads `a` with one blank only, as nothing precedes it in the term.
  assert.deepEqual(indexedParts('a.bcd'), ['.bcd']);
  assert.deepEqual(indexedParts('x.y'), ['.y']);
});

test('the index serves the words with three letters or digits in a row, or two beside another character', () => {
  assert.deepEqual(indexedTerm(['m7.f1@']), { words: ['m7.f1@'], parts: ['m7.', '.f1@'] });
  assert.deepEqual(indexedTerm(['jurgen', 'muller']), {
    words: ['jurgen', 'muller'],
    parts: ['jurgen', 'muller'],
  });
  // Trigrams of one character each (`  m`: a word that begins with m) find most members.
  assert.equal(indexedTerm(['x.m']), undefined);
  assert.equal(indexedTerm(['r1', 'jo']), undefined);
  assert.equal(indexedTerm(['...']), undefined);
  // A word the index cannot serve is still checked, on the members the others find.
  assert.deepEqual(indexedTerm(['jo', 'lee']), { words: ['jo', 'lee'], parts: ['lee'] });
});

describe('which way a search goes, from a sample of the facility', () => {
  const large = (texts: string[]) => ({ members: SMALL_FACILITY + 1, texts });
  // 200 members, each with a name of its own and the same domain.
  const sampled = Array.from({ length: 200 }, (_, i) => `m${i}\nsmith\nm${i}.f1@example.com`);
  const email = { words: ['m7.f1@example.com'], parts: ['m7.', '.f1@', '@example.', '.com'] };

  test('a small facility is read in order', () => {
    assert.equal(chooseIndexedParts({ members: SMALL_FACILITY, texts: [] }, email), undefined);
  });

  test('a term in at least 1 % of the sample is read in order', () => {
    assert.equal(chooseIndexedParts(large(sampled), { words: ['smith'], parts: ['smith'] }), undefined);
    assert.equal(chooseIndexedParts(large(sampled), { words: ['m19'], parts: ['m19'] }), undefined);
  });

  test('a rare term asks the index only for its parts in under 10 % of the sample', () => {
    assert.deepEqual(chooseIndexedParts(large(sampled), email), { words: email.words, parts: ['m7.'] });
  });

  test('a rare term whose parts are all common asks the index for all of them', () => {
    const rareOfCommonParts = { words: ['example.f1@'], parts: ['example.', '.f1@'] };
    assert.deepEqual(chooseIndexedParts(large(sampled), rareOfCommonParts), rareOfCommonParts);
  });
});

describe('member search through the trigram index', {
  skip: !DIALECTS.includes('postgres') && 'SQLite has no pg_trgm index (migration 0041)',
}, () => {
  let database: Database;
  let drop: () => Promise<void>;
  let captured: { sql: string; parameters: readonly unknown[] }[] = [];
  let smallFacility = 0;

  before(async () => {
    const created = await createTestDatabase('postgres');
    drop = created.drop;
    database = openDatabase(created.url, {
      onQuery: (sql, parameters) => captured.push({ sql, parameters }),
    });
    smallFacility = (await seed(database, MEMBERS, 1)).smallFacilities[0];
  });

  after(async () => {
    await database.close();
    await drop();
  });

  /** The members a search finds from the facility's start, and the index pages its last query read. */
  async function searchFor(q: string) {
    captured = [];
    const members = await listMembers(database.db, LARGE_FACILITY, {
      q,
      afterId: 0,
      limit: 100,
      maxBytes: 1 << 20,
    });
    const { sql, parameters } = captured[captured.length - 1];
    const explained = await database.db.executeQuery<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
      CompiledQuery.raw(`explain (analyze, buffers, format json) ${sql}`, [...parameters]),
    );
    const indexScan = findNode(explained.rows[0]['QUERY PLAN'][0].Plan, 'members_search');
    assert.ok(indexScan, `the trigram index is not read:\n${JSON.stringify(explained.rows[0])}`);
    const pages = indexScan['Shared Hit Blocks'] + indexScan['Shared Read Blocks'];
    return { emails: members.map((member) => member.email), pages };
  }

  test('the sample of the facility and the search are planned on every call', async () => {
    // A generic plan, kept after five calls of a prepared statement, would serve every
    // facility and every term alike: a small facility's count read by scanning the table.
    // The first search of this database: the facility is sampled.
    captured = [];
    await listMembers(database.db, LARGE_FACILITY, { q: 'zqx', afterId: 0, limit: 100, maxBytes: 1 << 20 });
    assert.equal(captured.length, 2, 'the sample, then the search');
    for (const { sql, parameters } of captured)
      assert.equal(asNamedStatement(sql, parameters), undefined, sql);
  });

  test('a facility is sampled once a minute, and searches that arrive together share the sample', async () => {
    const searchSmall = (q: string) =>
      listMembers(database.db, smallFacility, { q, afterId: 0, limit: 100, maxBytes: 1 << 20 });
    captured = [];
    await Promise.all([searchSmall('zqx'), searchSmall('zqy')]);
    assert.equal(captured.length, 3, 'one sample, two searches');
    captured = [];
    await searchSmall('zqz');
    assert.equal(captured.length, 1, 'the search alone');
  });

  test('a whole email is found reading few index pages, though every member shares its domain', async () => {
    const email = seededEmail(LARGE_FACILITY, MEMBERS - 7);
    const { emails, pages } = await searchFor(email.toUpperCase());
    assert.deepEqual(emails, [email]);
    // Asked for as one condition, or by all its parts, this email reads well over the 50 pages allowed;
    // by its one rare part, `m99993.`, a few (docs/performance-log.md).
    assert.ok(pages <= 50, `${pages} index pages`);
  });

  test('a term without three letters or digits in a row is searched through the index, by its parts', async () => {
    // `zq.` has trigrams (`  z`, ` zq`, `zq `); reading in order would read every member.
    // `.f1@`, in every member's email, is left out, so the search reads a few pages.
    const { emails, pages } = await searchFor('zq.f1@');
    assert.deepEqual(emails, []);
    assert.ok(pages <= 50, `${pages} index pages`);
  });

  test('members created since the last vacuum add few pages to a search (migration 0008)', async () => {
    // New entries wait unsorted in the index's pending list, which every search reads whole:
    // with PostgreSQL's default limit of 4 MB, 3,000 creates left several times the pages allowed here.
    await sql`
      insert into members (facility_id, first_name, last_name, email, email_folded, role, status,
        joined_on, status_changed_at, created_at, updated_at)
      select ${LARGE_FACILITY}, 'Pending' || n, 'Surname' || n % 50, 'p' || n || '@pending.test',
        'p' || n || '@pending.test', 'member', 'active', current_date, now(), now(), now()
      from generate_series(1, 3000) as n`.execute(database.db);
    const { rows } = await sql<{ options: string[] }>`
      select reloptions as options from pg_class where relname = 'members_search'`.execute(database.db);
    assert.deepEqual(rows[0].options, ['gin_pending_list_limit=256']);
    const email = seededEmail(LARGE_FACILITY, MEMBERS - 7);
    const { emails, pages } = await searchFor(email);
    assert.deepEqual(emails, [email]);
    assert.ok(pages <= 60, `${pages} index pages`);
  });
});

interface PlanNode {
  'Index Name'?: string;
  'Shared Hit Blocks': number;
  'Shared Read Blocks': number;
  Plans?: PlanNode[];
}

function findNode(node: PlanNode, indexName: string): PlanNode | undefined {
  if (node['Index Name'] === indexName) return node;
  for (const child of node.Plans ?? []) {
    const found = findNode(child, indexName);
    if (found) return found;
  }
  return undefined;
}
