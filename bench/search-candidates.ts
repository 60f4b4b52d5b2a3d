/**
 * Compares candidate indexes for `q` on SQLite, at the level of the database:
 * the cost of a create (an insert of a member in transactions of 16, as
 * group commit makes them) with and without the index, and the time of a
 * search for one member's email and of a page of a common term.
 *
 *   npm exec -- tsx bench/search-candidates.ts <members> <candidate>
 *
 * candidate: none | trigrams | fts5
 */
import { rmSync } from 'node:fs';
import SQLite from 'better-sqlite3';

const members = Number(process.argv[2] ?? 100_000);
const candidate = process.argv[3] ?? 'trigrams';
const file = `/tmp/search-candidates-${candidate}-${members}.db`;
for (const suffix of ['', '-wal', '-shm']) rmSync(file + suffix, { force: true });
const db = new SQLite(process.env.MEM ? ':memory:' : file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.pragma(`cache_size = ${process.env.CACHE ?? -2000}`);

db.exec(`create table members (id integer primary key autoincrement, facility_id integer not null,
  first_name text not null, last_name text, email text, email_folded text, status text not null, notes text);
  create index members_facility_id on members (facility_id, id);
  create unique index members_email_unique on members (facility_id, email_folded);`);

const seedSql = (
  facility: number,
  count: number,
) => `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
  insert into members (facility_id, first_name, last_name, email, email_folded, status)
  select ${facility}, 'Member' || i, 'Surname' || (i % 5000), 'm' || i || '.f${facility}@example.com',
    'm' || i || '.f${facility}@example.com', case i % 20 when 0 then 'removed' else 'active' end from n`;

const TRIGRAMS = `
  create table search_positions (n integer primary key);
  with recursive p(n) as (select 1 union all select n + 1 from p where n < 3000) insert into search_positions select n from p;
  create table member_trigrams (facility_id integer not null, trigram text not null, member_id integer not null,
    primary key (facility_id, trigram, member_id)) without rowid;
  create trigger members_trigrams_insert after insert on members begin
    insert or ignore into member_trigrams (facility_id, trigram, member_id)
    select new.facility_id, substr(f.t, p.n, 3), new.id
    from (select lower(new.first_name) as t union all select lower(new.last_name) union all select lower(new.email_folded)) as f
    cross join search_positions as p where p.n <= length(f.t) - 2;
  end;`;
const FTS5 = `
  create virtual table member_search using fts5(text, content='', contentless_delete=1, detail='none', tokenize='trigram');
  create trigger members_search_insert after insert on members begin
    insert into member_search (rowid, text) values (new.id, new.first_name || char(10) || coalesce(new.last_name, '') || char(10) || coalesce(new.email_folded, ''));
  end;`;

const t = performance.now();
if (candidate === 'trigrams') db.exec(TRIGRAMS);
if (candidate === 'fts5') db.exec(FTS5);
db.exec(seedSql(1, members));
db.exec(seedSql(2, 1000));
db.exec('analyze');
for (const setting of (process.env.FTS_SETTINGS ?? '').split(',').filter(Boolean)) {
  const [name, value] = setting.split('=');
  db.exec(`insert into member_search (member_search, rank) values ('${name}', ${Number(value)})`);
}
console.log(`seed ${members} with ${candidate}: ${((performance.now() - t) / 1000).toFixed(1)} s`);
const size = (db.prepare('pragma page_count').pluck().get() as number) * 4096;
console.log(`file ${(size / 1e6).toFixed(0)} MB`);

// Creates: transactions of 16, as group commit makes them.
const insert =
  db.prepare(`insert into members (facility_id, first_name, last_name, email, email_folded, status)
  values (1, ?, ?, ?, ?, 'active')`);
let next = members + 1;
const createRound = (count: number) => {
  const start = process.cpuUsage();
  for (let done = 0; done < count; done += 16) {
    db.transaction(() => {
      for (let k = 0; k < 16; k++, next++) {
        const email = `new${next}.x${next % 97}@example.org`;
        insert.run(`Created${next}`, `Family${next % 7919}`, email, email);
      }
    })();
  }
  const used = process.cpuUsage(start);
  return (used.user + used.system) / count;
};
createRound(2000);
const creates = [createRound(4000), createRound(4000), createRound(4000)];
console.log(`create µs CPU: ${creates.map((c) => c.toFixed(1)).join(', ')}`);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
function time(label: string, run: (i: number) => unknown[], rounds = 200) {
  const times: number[] = [];
  let found = 0;
  for (let k = 0; k < rounds; k++) {
    const i = 1 + Math.floor(Math.random() * members);
    const s = performance.now();
    found += run(i).length;
    times.push(performance.now() - s);
  }
  console.log(
    `${label}: median ${median(times).toFixed(3)} ms, max ${Math.max(...times).toFixed(2)}, rows ${found / rounds}`,
  );
}

const scan = db.prepare(`select id from members where facility_id = 1 and id > ? and status <> 'removed'
  and (first_name glob ? or last_name glob ? or email_folded glob ?) order by id limit 100`);
time('scan, email', (i) => scan.all(0, `*m${i}.f1@*`, `*m${i}.f1@*`, `*m${i}.f1@*`), 5);

if (candidate === 'trigrams') {
  const counts = db.prepare(`select j.value as trigram, (select count(*) from (select 1 from member_trigrams
    where facility_id = ? and trigram = j.value limit 4096)) as n from json_each(?) as j`);
  const search = (driving: string, probes: string[], afterId: number, glob: string) => {
    const joins = probes
      .map(
        (_, k) =>
          `cross join member_trigrams as t${k + 1} on t${k + 1}.facility_id = 1 and t${k + 1}.trigram = ? and t${k + 1}.member_id = t0.member_id`,
      )
      .join(' ');
    return db
      .prepare(`select members.id from (select t0.member_id from member_trigrams as t0 ${joins}
        where t0.facility_id = 1 and t0.trigram = ? and t0.member_id > ?) as found
        cross join members on members.id = found.member_id
        where members.facility_id = 1 and members.status <> 'removed' and (first_name glob ? or last_name glob ? or email_folded glob ?)
        order by found.member_id limit 100`)
      .all(...probes, driving, afterId, glob, glob, glob);
  };
  const trigramsOf = (term: string) => {
    const out = new Set<string>();
    for (let k = 0; k + 3 <= term.length; k++) out.add(term.slice(k, k + 3));
    return [...out];
  };
  const byRarity = (term: string) =>
    (counts.all(1, JSON.stringify(trigramsOf(term.toLowerCase()))) as { trigram: string; n: number }[]).sort(
      (a, b) => a.n - b.n,
    );
  const searchTerm = (term: string, afterId: number) => {
    const ranked = byRarity(term);
    return search(
      ranked[0].trigram,
      ranked.slice(1, 3).map((r) => r.trigram),
      afterId,
      `*${term}*`,
    );
  };
  console.log(
    byRarity('m523.f1@example.com')
      .map((r) => `${r.trigram}:${r.n}`)
      .join(' '),
  );
  time('trigrams, counts only', (i) => byRarity(`m${i}.f1@example.com`));
  time('trigrams, email', (i) => searchTerm(`m${i}.f1@example.com`, 0));
  time('trigrams, Surname1 at a random place', (i) => searchTerm('Surname1', i));
  time('trigrams, Member12', () => searchTerm('Member12', 0));
}
if (candidate === 'fts5') {
  const search =
    db.prepare(`select id from members where id in (select rowid from member_search where member_search match ? and rowid > ?)
    and facility_id = 1 and status <> 'removed' and (first_name glob ? or last_name glob ? or email_folded glob ?) order by id limit 100`);
  const trigramsOf = (term: string) => {
    const out = new Set<string>();
    for (let k = 0; k + 3 <= term.length; k++) out.add(term.slice(k, k + 3));
    return [...out];
  };
  const run = (term: string, afterId: number, only?: (t: string) => boolean) => {
    const match = trigramsOf(term)
      .filter(only ?? (() => true))
      .map((t) => `"${t}"`)
      .join(' AND ');
    return search.all(match, afterId, `*${term}*`, `*${term}*`, `*${term}*`);
  };
  time('fts5, email, every trigram', (i) => run(`m${i}.f1@example.com`, 0), 50);
  time('fts5, email, its trigrams with a digit but f1', (i) =>
    run(`m${i}.f1@example.com`, 0, (t) => /\d/.test(t) && !t.includes('f1')),
  );
  time('fts5, Surname1 (sur..me1) at a random place', (i) => run('Surname1', i, (t) => t === 'me1'), 20);
}
db.close();
