import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/database.js';
import { readFileSync } from 'node:fs';
const key = readFileSync('/tmp/perf/key','utf8');
const database = openDatabase('sqlite:/tmp/perf/b.db', { onQuery: (sql, p) => console.log('  Q', sql, JSON.stringify(p)) });
const config = { ...loadConfig({}), databaseUrl: 'sqlite:/tmp/perf/b.db' };
const app = await buildApp(config, { database, logger: false });
for (const [m, u, b] of [['GET','/admin/facilities/1/members/5'],['GET','/admin/facilities/1/members?limit=100'],['PATCH','/admin/facilities/1/members/5',{notes:'x'+Date.now()}],['POST','/admin/facilities/2/members',{first_name:'A',last_name:'B'}]] as const) {
  console.log(m,u);
  const r = await app.inject({ method: m, url: u, headers: { authorization: `Bearer ${key}` }, ...(b ? {payload: b}: {}) });
  console.log('  ->', r.statusCode, r.body.slice(0, 100));
}
await app.close();
