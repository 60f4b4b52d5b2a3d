import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * A trigram index over the text that `q` searches (first name, last name,
 * email), so that a search in a facility of a million members reads the
 * members that contain the term instead of all of them. It finds candidates
 * only: the list query still checks each candidate with the exact predicate
 * (src/modules/members/member-list.repository.ts).
 *
 * The three fields are indexed as one text, a line each: a term that spans two
 * lines matches no member in the exact check, and one index is cheaper to
 * write than three.
 *
 * SQLite: FTS5's trigram tokenizer in a contentless table (the text is not
 * stored twice), kept by triggers. PostgreSQL: pg_trgm's GIN operator class
 * on the same expression; pg_trgm ships with PostgreSQL and is a trusted
 * extension, which the database's owner may create.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
export async function up(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`create extension if not exists pg_trgm`.execute(db);
    await sql`
      create index members_search on members using gin (
        (lower(first_name) || E'\\n' || lower(coalesce(last_name, '')) || E'\\n' || coalesce(email_folded, ''))
        gin_trgm_ops
      )`.execute(db);
    // The planner weighs the index by the expression's statistics, which only ANALYZE gathers.
    await sql`analyze members`.execute(db);
    return;
  }
  /** The indexed text of the row `row` names ('new.'), or of the row of the query (''). */
  const text = (row: 'new.' | '') =>
    sql.raw(
      `${row}first_name || char(10) || coalesce(${row}last_name, '') || char(10) || coalesce(${row}email_folded, '')`,
    );
  await sql`
    create virtual table member_search using fts5(
      text, content='', contentless_delete=1, tokenize='trigram'
    )`.execute(db);
  await sql`
    create trigger member_search_insert after insert on members begin
      insert into member_search (rowid, text) values (new.id, ${text('new.')});
    end`.execute(db);
  await sql`
    create trigger member_search_update after update of first_name, last_name, email_folded on members begin
      delete from member_search where rowid = old.id;
      insert into member_search (rowid, text) values (new.id, ${text('new.')});
    end`.execute(db);
  await sql`
    create trigger member_search_delete after delete on members begin
      delete from member_search where rowid = old.id;
    end`.execute(db);
  await sql`
    insert into member_search (rowid, text) select id, ${text('')} from members`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index members_search`.execute(db);
    return;
  }
  for (const trigger of ['member_search_insert', 'member_search_update', 'member_search_delete'])
    await sql`drop trigger ${sql.id(trigger)}`.execute(db);
  await sql`drop table member_search`.execute(db);
}
