import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
const db = openDatabase('sqlite::memory:');
const app = await buildApp({ ...loadConfig({}), databaseUrl: 'sqlite::memory:', authMode: 'none' }, { database: db, logger: false });
async function r(method: string, url: string, payload?: string, headers: Record<string,string> = {}) {
  const res = await app.inject({ method: method as 'GET', url, payload, headers: payload !== undefined ? { 'content-type': 'application/json', ...headers } : headers });
  console.log(method, url, payload?.slice(0, 80), '->', res.statusCode, JSON.stringify(res.headers).slice(0, 300), res.body.slice(0, 400));
}
const argv = JSON.parse(process.argv[2]);
for (const a of argv) await r(...(a as [string, string]));
await app.close(); await db.close();
