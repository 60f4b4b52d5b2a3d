/**
 * The floor: a bare Fastify route in its own process for each kind of
 * request the benchmark compares, with nothing else (no validation, logging,
 * auth or data layer): one member row by primary key, a page of 100 members
 * of a facility after an id, one INSERT of a member, and on PostgreSQL the
 * statements of the service's create (bench/create-statements.ts: the write
 * ceiling).
 * Usage: tsx bench/floor.ts <DATABASE_URL> <port>
 */
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';
import { createAsTheService } from './create-statements.js';

const [url, port] = process.argv.slice(2);
const app = Fastify({ logger: false });

type PageQuery = { Querystring: { facility: string; after: string } };
type InsertBody = { Body: { facility_id: number; first_name: string; last_name: string } };

/** The columns a member needs: the service's defaults for a create with a name only. */
const newMember = (body: InsertBody['Body']) => {
  const now = new Date().toISOString();
  return [body.facility_id, body.first_name, body.last_name, now.slice(0, 10), now, now, now];
};
const INSERT_COLUMNS =
  'facility_id, first_name, last_name, role, status, joined_on, status_changed_at, created_at, updated_at';

if (url.startsWith('sqlite:')) {
  // The service's own settings for durability (src/db/database.ts).
  const db = new SQLite(url.slice('sqlite:'.length));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('busy_timeout = 5000');
  const byId = db.prepare('select * from members where id = ?');
  const page = db.prepare(
    'select * from members where facility_id = ? and deleted_at is null and id > ? order by id limit 100',
  );
  const insert = db.prepare(
    `insert into members (${INSERT_COLUMNS}) values (?, ?, ?, 'member', 'active', ?, ?, ?, ?) returning *`,
  );
  app.get<{ Params: { id: string } }>('/members/:id', async (request) => byId.get(Number(request.params.id)));
  app.get<PageQuery>('/members', async (request) => ({
    members: page.all(Number(request.query.facility), Number(request.query.after)),
  }));
  app.post<InsertBody>('/members', async (request, reply) =>
    reply.code(201).send(insert.get(...newMember(request.body))),
  );
} else {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  app.get<{ Params: { id: string } }>('/members/:id', async (request) => {
    const text = 'select * from members where id = $1';
    const result = await pool.query({ name: 'member_by_id', text, values: [Number(request.params.id)] });
    return result.rows[0];
  });
  app.get<PageQuery>('/members', async (request) => {
    const text =
      'select * from members where facility_id = $1 and deleted_at is null and id > $2 order by id limit 100';
    const values = [Number(request.query.facility), Number(request.query.after)];
    return { members: (await pool.query({ name: 'member_page', text, values })).rows };
  });
  app.post<InsertBody>('/members', async (request, reply) => {
    const text = `insert into members (${INSERT_COLUMNS}) values ($1, $2, $3, 'member', 'active', $4, $5, $6, $7) returning *`;
    const result = await pool.query({ name: 'member_insert', text, values: newMember(request.body) });
    return reply.code(201).send(result.rows[0]);
  });
  // The write ceiling: the statements of the service's create, with nothing else.
  app.post<InsertBody>('/members/as-the-service', async (request, reply) => {
    const { facility_id, first_name, last_name } = request.body;
    return reply.code(201).send(await createAsTheService(pool, facility_id, first_name, last_name));
  });
}

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
