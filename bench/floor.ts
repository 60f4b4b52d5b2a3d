/**
 * The floor: a bare Fastify route in its own process that reads one member
 * row by primary key and returns it, with nothing else (no validation,
 * logging, auth or data layer). Usage: tsx bench/floor.ts <DATABASE_URL> <port>
 */
import SQLite from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const [url, port] = process.argv.slice(2);
const app = Fastify({ logger: false });

if (url.startsWith('sqlite:')) {
  const db = new SQLite(url.slice('sqlite:'.length), { readonly: true });
  const statement = db.prepare('select * from members where id = ?');
  app.get<{ Params: { id: string } }>('/members/:id', async (request) =>
    statement.get(Number(request.params.id)),
  );
} else {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const text = 'select * from members where id = $1';
  app.get<{ Params: { id: string } }>('/members/:id', async (request) => {
    const result = await pool.query({ name: 'member_by_id', text, values: [Number(request.params.id)] });
    return result.rows[0];
  });
}

await app.listen({ port: Number(port), host: '127.0.0.1' });
process.stdout.write('ready\n');
