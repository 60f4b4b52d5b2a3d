import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

/**
 * `members.search_text`: what `q` searches, folded (lower case, accents
 * removed) and written by the service with every member
 * (src/modules/members/search/member-search-text.ts): first name, last name,
 * email, the phone's digits and the external id, a line each. Each engine's
 * trigram index now indexes this column instead of the expression of
 * migration 0007 (PostgreSQL) or the three columns of migration 0030
 * (SQLite): a word of `q`, folded alike, is in the text exactly when it is
 * in a field, whatever the accents and case of either.
 *
 * The backfill folds as the service did when this migration was written,
 * copied here: a migration must not change with today's code.
 */
const fold = (text: string) => text.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

interface Fields {
  id: number;
  first_name: string;
  last_name: string | null;
  email: string | null;
  phone: string | null;
  external_id: string | null;
}

const textOf = (m: Fields) =>
  [
    fold(m.first_name),
    fold(m.last_name ?? ''),
    fold(m.email ?? ''),
    fold(m.phone ?? '').replace(/\D/g, ''),
    fold(m.external_id ?? ''),
  ].join('\n');

const BATCH = 1000;

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and must not depend on today's schema types
async function backfill(db: Kysely<any>): Promise<void> {
  let afterId = 0;
  for (;;) {
    const rows: Fields[] = await db
      .selectFrom('members')
      .select(['id', 'first_name', 'last_name', 'email', 'phone', 'external_id'])
      .where('id', '>', afterId)
      .orderBy('id')
      .limit(BATCH)
      .execute();
    if (rows.length === 0) return;
    if (dialectOf(db) === 'postgres') {
      // One statement a batch: a row a round trip would take minutes at a million members.
      await sql`update members set search_text = folded.text
        from unnest(${rows.map((row) => row.id)}::bigint[], ${rows.map(textOf)}::text[]) as folded(id, text)
        where members.id = folded.id`.execute(db);
    } else {
      // In the process, a statement a row costs little.
      for (const row of rows) {
        await db
          .updateTable('members')
          .set({ search_text: textOf(row) })
          .where('id', '=', row.id)
          .execute();
      }
    }
    afterId = Number(rows[rows.length - 1].id);
  }
}

const SQLITE_TRIGGERS = ['member_search_insert', 'member_search_update', 'member_search_delete'];

// biome-ignore lint/suspicious/noExplicitAny: see backfill()
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('members')
    .addColumn('search_text', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await backfill(db);
  if (dialectOf(db) === 'postgres') {
    await sql`drop index members_search`.execute(db);
    // The pending list's limit of migration 0008, on the new index.
    await sql`create index members_search on members using gin (search_text gin_trgm_ops)
      with (gin_pending_list_limit = 256)`.execute(db);
    await sql`analyze members`.execute(db);
    return;
  }
  for (const trigger of SQLITE_TRIGGERS) await sql.raw(`drop trigger ${trigger}`).execute(db);
  await sql`drop table member_search`.execute(db);
  // The text is folded already: the tokenizer keeps it as it is (case_sensitive), as the search asks it.
  await sql`create virtual table member_search using fts5(
    text, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram case_sensitive 1')`.execute(
    db,
  );
  await sql`insert into member_search (rowid, text) select id, search_text from members`.execute(db);
  await sql`create trigger member_search_insert after insert on members begin
      insert into member_search (rowid, text) values (new.id, new.search_text);
    end`.execute(db);
  await sql`create trigger member_search_update after update of search_text on members
    when old.search_text is not new.search_text
    begin
      delete from member_search where rowid = old.id;
      insert into member_search (rowid, text) values (new.id, new.search_text);
    end`.execute(db);
  await sql`create trigger member_search_delete after delete on members begin
      delete from member_search where rowid = old.id;
    end`.execute(db);
}

/** Back to the indexes of migrations 0007, 0008 and 0030. */
// biome-ignore lint/suspicious/noExplicitAny: see backfill()
export async function down(db: Kysely<any>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index members_search`.execute(db);
    await sql`
      create index members_search on members using gin (
        (lower(first_name) || E'\\n' || lower(coalesce(last_name, '')) || E'\\n' || coalesce(email_folded, ''))
        gin_trgm_ops
      ) with (gin_pending_list_limit = 256)`.execute(db);
  } else {
    for (const trigger of SQLITE_TRIGGERS) await sql.raw(`drop trigger ${trigger}`).execute(db);
    await sql`drop table member_search`.execute(db);
    const searched = (row: string) =>
      `${row}.first_name || char(10) || coalesce(${row}.last_name, '') || char(10) || coalesce(${row}.email_folded, '')`;
    await sql`create virtual table member_search using fts5(
      text, content = '', contentless_delete = 1, detail = none, tokenize = 'trigram')`.execute(db);
    await sql
      .raw(`insert into member_search (rowid, text) select id, ${searched('members')} from members`)
      .execute(db);
    await sql
      .raw(`create trigger member_search_insert after insert on members begin
        insert into member_search (rowid, text) values (new.id, ${searched('new')});
      end`)
      .execute(db);
    await sql
      .raw(`create trigger member_search_update after update of first_name, last_name, email_folded on members
      when old.first_name is not new.first_name or old.last_name is not new.last_name
        or old.email_folded is not new.email_folded
      begin
        delete from member_search where rowid = old.id;
        insert into member_search (rowid, text) values (new.id, ${searched('new')});
      end`)
      .execute(db);
    await sql
      .raw(`create trigger member_search_delete after delete on members begin
        delete from member_search where rowid = old.id;
      end`)
      .execute(db);
  }
  await db.schema.alterTable('members').dropColumn('search_text').execute();
}
