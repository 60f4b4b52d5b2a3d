import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * SQLite: an FTS5 trigram index over the text that `q` searches (first name,
 * last name, email, a line each), kept by triggers in the transaction of
 * every write to a member, so that a search in a large facility reads the
 * members that may contain the term instead of all of them
 * (src/modules/members/search/member-search-sqlite.ts). The index only
 * narrows: each member it finds is checked against the term as before, so
 * answers stay those of the substring rule.
 *
 * Contentless (the text is the members'), `detail=none` (member ids only, no
 * positions: a term is asked for as its trigrams, each a token), and
 * `contentless_delete=1`, so that a trigger can delete a member's row by id.
 * Measured against a table of (facility, trigram, member) rows in a B-tree,
 * which cost a create several times what FTS5 costs it
 * (docs/performance-log.md).
 *
 * PostgreSQL has pg_trgm's index (migration 0007).
 */
const SEARCHED = (row: 'new' | 'old') =>
  `${row}.first_name || char(10) || coalesce(${row}.last_name, '') || char(10) || coalesce(${row}.email_folded, '')`;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  await sql`create virtual table member_search using fts5(
    text, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram')`.execute(db);
  await sql`insert into member_search (rowid, text)
    select id, first_name || char(10) || coalesce(last_name, '') || char(10) || coalesce(email_folded, '')
    from members`.execute(db);
  await sql
    .raw(`create trigger member_search_insert after insert on members begin
      insert into member_search (rowid, text) values (new.id, ${SEARCHED('new')});
    end`)
    .execute(db);
  await sql
    .raw(`create trigger member_search_update after update of first_name, last_name, email_folded on members
    when old.first_name is not new.first_name or old.last_name is not new.last_name
      or old.email_folded is not new.email_folded
    begin
      delete from member_search where rowid = old.id;
      insert into member_search (rowid, text) values (new.id, ${SEARCHED('new')});
    end`)
    .execute(db);
  await sql
    .raw(`create trigger member_search_delete after delete on members begin
      delete from member_search where rowid = old.id;
    end`)
    .execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) !== 'sqlite') return;
  for (const trigger of ['member_search_insert', 'member_search_update', 'member_search_delete']) {
    await sql.raw(`drop trigger ${trigger}`).execute(db);
  }
  await sql`drop table member_search`.execute(db);
}
