/**
 * Crash safety: no acknowledged write is lost and nothing is half-written when
 * the service dies mid-load (and, with --pg-restart, while PostgreSQL goes away
 * and comes back).
 *
 *   npm run test:crash                      SQLite and PostgreSQL, a few seconds to 10 s of load each
 *   npm run test:crash -- --short           the CI form: 1 to 2.5 s of load per database
 *   npm run test:crash -- --pg-restart      also stop PostgreSQL for ~3 s during load (affects the
 *                                           whole local cluster: run it alone)
 *   npm run test:crash -- --db=sqlite       one database only (sqlite or postgres)
 *
 * PG_CLUSTER (default `15 main`) names the cluster that --pg-restart stops and
 * starts; TEST_POSTGRES_URL must point at that cluster.
 *
 * For each database (a temporary SQLite file; a fresh PostgreSQL database on
 * TEST_POSTGRES_URL, default postgres://postgres@127.0.0.1:5432/postgres,
 * dropped at the end) it:
 *
 * 1. starts the real service (`node --import tsx src/cli.ts serve`) on a free
 *    port of 127.0.0.1, with AUTH_MODE=none and the rate limit off;
 * 2. drives 16 concurrent clients creating plans (some from templates) and
 *    members and PATCHing them, and records every request: when it was sent,
 *    when it was answered, and the answer;
 * 3. sends SIGKILL at a random moment, starts the service again on the same
 *    database and checks:
 *    - lost: every create answered 2xx is readable; every field holds a value
 *      the rule below allows; with no write of unknown outcome on it, the
 *      resource equals the body of one acknowledged write (updated_at too);
 *    - half-written: every plan made from a template has exactly the
 *      template's entitlements; every plan and member has exactly one `create`
 *      audit event (template plans one `entitlements` create event too) and
 *      no such event names a resource that does not exist; every resource that
 *      was not acknowledged matches a create whose outcome is unknown (its
 *      answer was lost in the crash) field for field;
 *    - idempotency: a retry of an acknowledged create with its Idempotency-Key
 *      replays the first answer. Retries of creates whose answer was lost are
 *      reported, not judged (see the summary line).
 *
 * The rule for a field when PATCHes race. A write is acknowledged (2xx),
 * rejected (4xx: the service promises it changed nothing) or of unknown
 * outcome (no answer, or 5xx). Writes to one resource are serialized by the
 * service (row lock), so the stored value of a field is the value of the last
 * write to it that took effect. A write W is surely superseded for field f if
 * an acknowledged write touching f was SENT after W was ANSWERED (it took
 * effect after W). So the stored value must be the value of the create, or of
 * an acknowledged or unknown-outcome PATCH touching f, that is not surely
 * superseded. A field that no PATCH touches must equal the acknowledged create.
 *
 * With --pg-restart (PostgreSQL only) a second phase runs on the restarted
 * service: load, `pg_ctlcluster --skip-systemctl-redirect 15 main stop`, ~3 s
 * of load against the stopped database, `... start`, load until the service
 * answers writes again and 2 s more, then the checks above over every write of
 * both phases. Every request sent after the stop finished and answered before
 * the start began must be 503 service_unavailable (or a connection error); no
 * 500 anywhere; after recovery, no 5xx.
 *
 * Output: one summary line per database (and per outage), exit status 1 on any
 * loss, half-written data or misbehaviour. Traffic goes to 127.0.0.1 only.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual, promisify } from 'node:util';
import pg from 'pg';
import { removeSqliteFiles } from '../test/harness.js';
import { type ServiceProcess, startService } from '../test/service-process.js';

const args = process.argv.slice(2);
const SHORT = args.includes('--short');
const PG_RESTART = args.includes('--pg-restart');
const ONLY = args.find((a) => a.startsWith('--db='))?.slice('--db='.length);
for (const arg of args) {
  if (!['--short', '--pg-restart'].includes(arg) && !/^--db=(sqlite|postgres)$/.test(arg)) {
    console.error(`crash-test: unknown option ${arg} (use --short, --pg-restart, --db=sqlite|postgres)`);
    process.exit(2);
  }
}

const POSTGRES_ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The cluster that --pg-restart stops and starts, as `<version> <name>` for pg_ctlcluster. */
const PG_CLUSTER = (process.env.PG_CLUSTER ?? '15 main').split(/\s+/);
const PG_CTL = ['--skip-systemctl-redirect', ...PG_CLUSTER];
const CONCURRENCY = 16;
const FACILITIES = [1, 2, 3, 4];
/** Load before the SIGKILL, picked at random in this range (ms). */
const KILL_AFTER_MS: [number, number] = SHORT ? [1000, 2500] : [3000, 10_000];
const MAX_REQUESTS_PER_PHASE = 50_000;
const REQUEST_TIMEOUT_MS = 10_000;
const OUTAGE_MS = 3000;
/** The whole run may not take longer than this. */
const WATCHDOG_MS = (SHORT ? 5 : 15) * 60_000;
const RUN_ID = randomBytes(4).toString('hex');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const random = (n: number) => Math.floor(Math.random() * n);
const pick = <T>(items: T[]): T => items[random(items.length)];
const now = () => performance.now();

// ---------------------------------------------------------------------------------------------------
// Requests

// biome-ignore lint/suspicious/noExplicitAny: resources are read as arbitrary JSON
type Json = any;

interface Answer {
  status: number | null;
  code?: string;
  body?: Json;
  headers?: Headers;
  error?: string;
  sent: number;
  done: number;
}

async function call(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Answer> {
  const sent = now();
  try {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: body === undefined ? headers : { 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
    const text = await response.text();
    let parsed: Json;
    try {
      parsed = text === '' ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return {
      status: response.status,
      code: response.status >= 400 ? parsed?.code : undefined,
      body: parsed,
      headers: response.headers,
      sent,
      done: now(),
    };
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause;
    return { status: null, error: cause?.code ?? (error as Error).name, sent, done: now() };
  }
}

/** A GET that must succeed (verification): throws otherwise. */
async function read(baseUrl: string, path: string): Promise<Json> {
  const answer = await call(baseUrl, 'GET', path);
  if (answer.status !== 200) {
    throw new Error(`GET ${path}: ${answer.status ?? answer.error} ${JSON.stringify(answer.body ?? '')}`);
  }
  return answer.body;
}

async function readAll(baseUrl: string, path: string, key: string): Promise<Json[]> {
  const items: Json[] = [];
  let cursor: string | null = null;
  do {
    const separator = path.includes('?') ? '&' : '?';
    const page = await read(
      baseUrl,
      `${path}${separator}limit=1000${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    items.push(...page[key]);
    cursor = page.next_cursor;
  } while (cursor);
  return items;
}

// ---------------------------------------------------------------------------------------------------
// What the clients did

type Kind = 'plan' | 'member';
type Outcome = 'acked' | 'rejected' | 'unknown';

interface Write {
  kind: Kind;
  op: 'create' | 'patch';
  facility: number;
  id: number | null;
  request: Record<string, unknown>;
  idempotencyKey?: string;
  phase: string;
  outcome: Outcome;
  answer: Answer;
}

interface Resource {
  kind: Kind;
  facility: number;
  id: number;
  create: Write;
  patches: Write[];
}

interface Template {
  id: number;
  entitlements: { key: string; value: unknown }[];
}

class History {
  readonly writes: Write[] = [];
  readonly resources = new Map<string, Resource>();
  /** Acknowledged plans per facility, for members to join and PATCHes to pick. */
  readonly plans = new Map<number, number[]>();
  readonly members = new Map<number, number[]>();
  seq = 0;

  record(write: Write): void {
    this.writes.push(write);
    if (write.outcome !== 'acked') return;
    if (write.op === 'create') {
      const id = write.answer.body.id as number;
      write.id = id;
      this.resources.set(`${write.kind}:${id}`, {
        kind: write.kind,
        facility: write.facility,
        id,
        create: write,
        patches: [],
      });
      const ids = (write.kind === 'plan' ? this.plans : this.members).get(write.facility) ?? [];
      ids.push(id);
      (write.kind === 'plan' ? this.plans : this.members).set(write.facility, ids);
    }
  }

  /** PATCHes are attached at send time, so that unknown-outcome ones count too. */
  attachPatch(write: Write): void {
    this.resources.get(`${write.kind}:${write.id}`)?.patches.push(write);
  }
}

function outcomeOf(answer: Answer): Outcome {
  if (answer.status === null || answer.status >= 500) return 'unknown';
  return answer.status < 300 ? 'acked' : 'rejected';
}

// ---------------------------------------------------------------------------------------------------
// Load

interface LoadOptions {
  baseUrl: string;
  history: History;
  templates: Template[];
  phase: string;
}

/** 16 clients writing until stop() is called; stop() waits for the requests in flight. */
function startLoad(options: LoadOptions): { stop(): Promise<void>; requests(): number } {
  const { baseUrl, history, templates, phase } = options;
  let running = true;
  let requests = 0;

  async function createPlan(facility: number): Promise<void> {
    const n = ++history.seq;
    const request: Record<string, unknown> = { name: `Plan ${n} ${RUN_ID}` };
    if (Math.random() < 0.35) {
      request.template_id = pick(templates).id;
      if (Math.random() < 0.5) request.price_amount = random(100_000);
    } else {
      request.price_amount = random(100_000);
      request.description = `plan ${n} ${randomBytes(6).toString('hex')}`;
      request.billing_period = pick(['monthly', 'yearly', 'weekly']);
      if (Math.random() < 0.2) request.max_members = 1 + random(4);
    }
    await create('plan', facility, `/admin/facilities/${facility}/plans`, request);
  }

  async function createMember(facility: number): Promise<void> {
    const n = ++history.seq;
    const request: Record<string, unknown> = {
      first_name: `Member${n}`,
      email: `m${n}-${RUN_ID}@example.com`,
      status: pick(['active', 'pending']),
      notes: `joined ${randomBytes(6).toString('hex')}`,
    };
    const plans = history.plans.get(facility) ?? [];
    if (plans.length > 0 && Math.random() < 0.6) request.plan_id = pick(plans);
    await create('member', facility, `/admin/facilities/${facility}/members`, request);
  }

  async function create(kind: Kind, facility: number, path: string, request: Record<string, unknown>) {
    const idempotencyKey = `crash-${RUN_ID}-${history.seq}`;
    const answer = await call(baseUrl, 'POST', path, request, { 'idempotency-key': idempotencyKey });
    const write: Write = {
      kind,
      op: 'create',
      facility,
      id: null,
      request,
      idempotencyKey,
      phase,
      outcome: outcomeOf(answer),
      answer,
    };
    history.record(write);
  }

  async function patch(kind: Kind, facility: number, id: number): Promise<void> {
    const token = randomBytes(6).toString('hex');
    const fields =
      kind === 'plan'
        ? { price_amount: random(100_000), description: Math.random() < 0.1 ? null : `patched ${token}` }
        : { notes: `patched ${token}`, phone: `+1 ${random(1e9)}`, last_name: `Last${token}` };
    const request = Object.fromEntries(Object.entries(fields).filter(() => Math.random() < 0.6));
    if (Object.keys(request).length === 0)
      Object.assign(request, Object.fromEntries([Object.entries(fields)[0]]));
    const write: Write = {
      kind,
      op: 'patch',
      facility,
      id,
      request,
      phase,
      outcome: 'unknown',
      answer: { status: null, sent: now(), done: Number.POSITIVE_INFINITY },
    };
    history.attachPatch(write);
    history.writes.push(write);
    const path = `/admin/facilities/${facility}/${kind}s/${id}`;
    write.answer = await call(baseUrl, 'PATCH', path, request);
    write.outcome = outcomeOf(write.answer);
  }

  async function worker(): Promise<void> {
    while (running && requests < MAX_REQUESTS_PER_PHASE) {
      requests++;
      const facility = pick(FACILITIES);
      const plans = history.plans.get(facility) ?? [];
      const members = history.members.get(facility) ?? [];
      const r = Math.random();
      if (plans.length < 3 || r < 0.25) await createPlan(facility);
      else if (r < 0.6 || members.length === 0) await createMember(facility);
      else if (r < 0.8) await patch('plan', facility, pick(plans));
      else await patch('member', facility, pick(members));
    }
  }

  const workers = Array.from({ length: CONCURRENCY }, () => worker());
  return {
    stop: async () => {
      running = false;
      await Promise.all(workers);
    },
    requests: () => requests,
  };
}

// ---------------------------------------------------------------------------------------------------
// Verification

interface Verdict {
  /** Creates whose answer was lost but that took effect. */
  committedUnknown: Set<Write>;
  acknowledged: number;
  lost: number;
  halfWritten: number;
  unknownTotal: number;
  problems: string[];
}

/** Could `w` be the last write to field `field`? Not if an acknowledged write of it was sent after w was answered. */
function superseded(w: Write, field: string, patches: Write[]): boolean {
  return patches.some(
    (p) => p !== w && p.outcome === 'acked' && field in p.request && p.answer.sent > w.answer.done,
  );
}

function checkResource(resource: Resource, stored: Json, problems: string[]): Set<Write> {
  const lost = new Set<Write>();
  const { create, patches } = resource;
  const live = patches.filter((p) => p.outcome !== 'rejected');
  const acked = patches.filter((p) => p.outcome === 'acked');
  const label = `${resource.kind} ${resource.id} (facility ${resource.facility})`;

  for (const field of Object.keys(create.answer.body)) {
    if (field === 'updated_at') continue;
    const touching = live.filter((p) => field in p.request);
    const candidates: unknown[] = [];
    if (!touching.some((p) => p.outcome === 'acked')) candidates.push(create.answer.body[field]);
    for (const p of touching) if (!superseded(p, field, patches)) candidates.push(p.request[field]);
    if (!candidates.some((c) => isDeepStrictEqual(c, stored[field]))) {
      const culprit = [create, ...acked.filter((p) => field in p.request)].sort(
        (a, b) => b.answer.done - a.answer.done,
      )[0];
      lost.add(culprit);
      problems.push(
        `${label}: ${field} is ${JSON.stringify(stored[field])}, expected one of ${JSON.stringify(candidates)}`,
      );
    }
  }

  // With no write of unknown outcome, the resource is exactly what one acknowledged write answered.
  if (!live.some((p) => p.outcome === 'unknown')) {
    const answers = [create, ...acked].filter(
      (w) => !acked.some((p) => p !== w && p.answer.sent > w.answer.done),
    );
    if (!answers.some((w) => isDeepStrictEqual(w.answer.body, stored))) {
      lost.add([create, ...acked].sort((a, b) => b.answer.done - a.answer.done)[0]);
      problems.push(`${label}: stored ${JSON.stringify(stored)} equals no acknowledged answer`);
    }
  }
  return lost;
}

async function verify(baseUrl: string, history: History, templates: Template[]): Promise<Verdict> {
  const problems: string[] = [];
  let lost = 0;
  const halfWritten = new Set<string>();
  const templateById = new Map(templates.map((t) => [t.id, t]));
  const unknownCreates = history.writes.filter((w) => w.op === 'create' && w.outcome === 'unknown');
  const committedUnknown = new Set<Write>();

  for (const facility of FACILITIES) {
    const base = `/admin/facilities/${facility}`;
    const stored = {
      plan: new Map<number, Json>(
        (await readAll(baseUrl, `${base}/plans?include_inactive=true`, 'plans')).map((p) => [p.id, p]),
      ),
      member: new Map<number, Json>(
        (
          await readAll(
            baseUrl,
            `${base}/members?status=pending,active,frozen,suspended,cancelled,removed`,
            'members',
          )
        ).map((m) => [m.id, m]),
      ),
    };
    const events = async (type: string) => {
      const counts = new Map<number, number>();
      const path = `${base}/audit-events?resource_type=${type}&action=create`;
      for (const e of await readAll(baseUrl, path, 'audit_events')) {
        counts.set(Number(e.resource_id), (counts.get(Number(e.resource_id)) ?? 0) + 1);
      }
      return counts;
    };
    const createEvents = { plan: await events('plan'), member: await events('member') };
    const entitlementEvents = await events('entitlements');

    // Acknowledged resources: present and intact.
    for (const resource of history.resources.values()) {
      if (resource.facility !== facility) continue;
      const row = stored[resource.kind].get(resource.id);
      if (!row) {
        const ackedPatches = resource.patches.filter((p) => p.outcome === 'acked').length;
        lost += 1 + ackedPatches;
        problems.push(`${resource.kind} ${resource.id} (facility ${facility}): acknowledged, but missing`);
        continue;
      }
      lost += checkResource(resource, row, problems).size;
    }

    for (const kind of ['plan', 'member'] as const) {
      for (const [id, row] of stored[kind]) {
        const label = `${kind} ${id} (facility ${facility})`;
        // Not acknowledged: must be exactly a create whose answer was lost.
        if (!history.resources.has(`${kind}:${id}`)) {
          const key = kind === 'plan' ? 'name' : 'email';
          const origin = unknownCreates.find(
            (w) => w.kind === kind && w.facility === facility && w.request[key] === row[key],
          );
          if (!origin) {
            halfWritten.add(label);
            problems.push(`${label}: exists, but no create of it was sent`);
          } else if (!Object.entries(origin.request).every(([f, v]) => isDeepStrictEqual(row[f], v))) {
            halfWritten.add(label);
            problems.push(`${label}: differs from its create ${JSON.stringify(origin.request)}`);
          } else {
            committedUnknown.add(origin);
          }
        }
        const creates = createEvents[kind].get(id) ?? 0;
        if (creates !== 1) {
          halfWritten.add(label);
          problems.push(`${label}: ${creates} create events in the audit trail`);
        }
        if (kind !== 'plan') continue;
        const template = row.template_id === null ? undefined : templateById.get(row.template_id);
        const expectedEvents = template ? 1 : 0;
        if ((entitlementEvents.get(id) ?? 0) !== expectedEvents) {
          halfWritten.add(label);
          problems.push(`${label}: ${entitlementEvents.get(id) ?? 0} entitlements create events`);
        }
        if (template) {
          const { entitlements } = await read(baseUrl, `${base}/plans/${id}/entitlements`);
          const expected = [...template.entitlements].sort((a, b) => (a.key < b.key ? -1 : 1));
          if (!isDeepStrictEqual(entitlements, expected)) {
            halfWritten.add(label);
            problems.push(
              `${label}: entitlements ${JSON.stringify(entitlements)}, template ${template.id} has ${JSON.stringify(expected)}`,
            );
          }
        }
      }
      for (const map of [createEvents[kind], ...(kind === 'plan' ? [entitlementEvents] : [])]) {
        for (const id of map.keys()) {
          if (!stored[kind].has(id)) {
            halfWritten.add(`audit ${kind} ${id} (facility ${facility})`);
            problems.push(`audit trail: a create event for ${kind} ${id}, which does not exist`);
          }
        }
      }
    }
  }

  return {
    acknowledged: history.writes.filter((w) => w.outcome === 'acked').length,
    lost,
    halfWritten: halfWritten.size,
    committedUnknown,
    unknownTotal: history.writes.filter((w) => w.outcome === 'unknown').length,
    problems,
  };
}

/**
 * Retries creates with their Idempotency-Key. An acknowledged one must replay
 * its first answer (a problem otherwise). One whose answer was lost is only
 * counted by what the retry got: replayed, still "in progress" (the key was
 * claimed, the process died before storing the answer), or run again.
 */
async function probeIdempotency(
  baseUrl: string,
  history: History,
  committed: Set<Write>,
  problems: string[],
) {
  const acked = history.writes.filter((w) => w.op === 'create' && w.outcome === 'acked').slice(-50);
  let replayed = 0;
  for (const w of acked) {
    const path = `/admin/facilities/${w.facility}/${w.kind}s`;
    const retry = await call(baseUrl, 'POST', path, w.request, { 'idempotency-key': w.idempotencyKey ?? '' });
    if (
      retry.status === w.answer.status &&
      retry.headers?.get('idempotent-replayed') === 'true' &&
      isDeepStrictEqual(retry.body, w.answer.body)
    ) {
      replayed++;
    } else {
      problems.push(
        `idempotent retry of acknowledged ${w.kind} ${w.id}: ${retry.status} ${JSON.stringify(retry.body)}`,
      );
    }
  }
  const lostAnswers: Record<string, number> = {};
  for (const w of history.writes.filter((w) => w.op === 'create' && w.outcome === 'unknown').slice(0, 200)) {
    const path = `/admin/facilities/${w.facility}/${w.kind}s`;
    const retry = await call(baseUrl, 'POST', path, w.request, { 'idempotency-key': w.idempotencyKey ?? '' });
    const what =
      retry.headers?.get('idempotent-replayed') === 'true'
        ? `replayed ${retry.status}`
        : `${retry.status ?? retry.error}${retry.code ? ` ${retry.code}` : ''}`;
    const key = `${committed.has(w) ? 'took effect' : 'did not'}: ${what}`;
    lostAnswers[key] = (lostAnswers[key] ?? 0) + 1;
  }
  return { ackedReplayed: replayed, ackedTried: acked.length, lostAnswers };
}

// ---------------------------------------------------------------------------------------------------
// PostgreSQL outage

const execFileAsync = promisify(execFile);
let postgresStopped = false;

async function pgCtl(action: 'stop' | 'start'): Promise<void> {
  await execFileAsync('pg_ctlcluster', [...PG_CTL, action], { timeout: 60_000 });
  postgresStopped = action === 'stop';
}

interface OutageReport {
  outageMs: number;
  during: Record<string, number>;
  recoveryMs: number | null;
  afterRecovery: Record<string, number>;
  problems: string[];
}

function describeAnswer(a: Answer): string {
  if (a.status === null) return `error ${a.error}`;
  return a.status >= 400 ? `${a.status} ${a.code}` : String(a.status);
}

function countBy(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[describeAnswer(a)] = (counts[describeAnswer(a)] ?? 0) + 1;
  return counts;
}

async function outagePhase(
  service: ServiceProcess,
  history: History,
  templates: Template[],
): Promise<OutageReport> {
  const problems: string[] = [];
  const first = history.writes.length;
  const load = startLoad({ baseUrl: service.baseUrl, history, templates, phase: 'pg-restart' });
  await sleep(1500);
  await pgCtl('stop');
  const downFrom = now();
  await sleep(OUTAGE_MS);
  const ready = await call(service.baseUrl, 'GET', '/readyz');
  const downUntil = now();
  await pgCtl('start');
  const upFrom = now();

  // Load until a write is acknowledged again, then 2 s more.
  const limit = upFrom + 30_000;
  let recoveredAt: number | null = null;
  while (now() < limit) {
    const ok = history.writes.slice(first).find((w) => w.outcome === 'acked' && w.answer.sent >= upFrom);
    if (ok) {
      recoveredAt = ok.answer.done;
      break;
    }
    await sleep(50);
  }
  if (recoveredAt !== null) await sleep(2000);
  await load.stop();

  const phaseWrites = history.writes.slice(first).map((w) => w.answer);
  const during = phaseWrites.filter((a) => a.sent >= downFrom && a.done <= downUntil);
  during.push(ready);
  for (const a of during) {
    if (a.status !== null && !(a.status === 503 && a.code === 'service_unavailable')) {
      problems.push(`during the outage: ${describeAnswer(a)}`);
    }
  }
  const after = recoveredAt === null ? [] : phaseWrites.filter((a) => a.sent > (recoveredAt as number));
  for (const a of after)
    if (a.status === null || a.status >= 500) problems.push(`after recovery: ${describeAnswer(a)}`);
  for (const a of phaseWrites)
    if (a.status === 500) problems.push('a 500 internal_error in the outage phase');
  if (recoveredAt === null) problems.push('the service did not answer a write within 30 s of the start');
  const readyAfter = await call(service.baseUrl, 'GET', '/readyz');
  if (readyAfter.status !== 200) problems.push(`/readyz after recovery: ${describeAnswer(readyAfter)}`);

  return {
    outageMs: downUntil - downFrom,
    during: countBy(during),
    recoveryMs: recoveredAt === null ? null : recoveredAt - upFrom,
    afterRecovery: countBy(after),
    problems: [...new Set(problems)],
  };
}

// ---------------------------------------------------------------------------------------------------
// One database

const services = new Set<ServiceProcess>();

async function start(databaseUrl: string): Promise<ServiceProcess> {
  const service = await startService(databaseUrl);
  services.add(service);
  service.child.once('exit', () => services.delete(service));
  return service;
}

async function runDatabase(name: 'sqlite' | 'postgres', databaseUrl: string): Promise<boolean> {
  const history = new History();
  let service = await start(databaseUrl);
  const templates: Template[] = (await read(service.baseUrl, '/admin/plan-templates?limit=1000')).templates;

  const load = startLoad({ baseUrl: service.baseUrl, history, templates, phase: 'crash' });
  const killAfter = KILL_AFTER_MS[0] + Math.random() * (KILL_AFTER_MS[1] - KILL_AFTER_MS[0]);
  const loadStarted = now();
  await sleep(killAfter);
  const killedAfterMs = now() - loadStarted;
  const stopping = load.stop();
  await service.kill('SIGKILL');
  await stopping;
  const killedRequests = history.writes.filter((w) => w.answer.status === null).length;

  service = await start(databaseUrl);
  const verdict = await verify(service.baseUrl, history, templates);
  const misbehaviour = history.writes.filter((w) => w.answer.status === 500).length;
  if (misbehaviour > 0) verdict.problems.push(`${misbehaviour} requests were answered 500 during the load`);
  const idempotency = await probeIdempotency(
    service.baseUrl,
    history,
    verdict.committedUnknown,
    verdict.problems,
  );
  const created = (kind: Kind) =>
    history.writes.filter((w) => w.kind === kind && w.op === 'create' && w.outcome === 'acked').length;
  const patched = history.writes.filter((w) => w.op === 'patch' && w.outcome === 'acked').length;
  const rejected = countBy(history.writes.filter((w) => w.outcome === 'rejected').map((w) => w.answer));

  console.log(
    `${name}: ${verdict.acknowledged} acknowledged writes, ${verdict.lost} lost, ` +
      `${verdict.halfWritten} half-written, killed after ${(killedAfterMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `  ${created('plan')} plans and ${created('member')} members created, ${patched} PATCHes acknowledged; ` +
      `rejected: ${JSON.stringify(rejected)}; ${killedRequests} requests cut off by the kill, ` +
      `${verdict.unknownTotal} writes of unknown outcome (${verdict.committedUnknown.size} creates among them took effect)`,
  );
  console.log(
    `  idempotency: ${idempotency.ackedReplayed}/${idempotency.ackedTried} acknowledged creates replayed; ` +
      `retries of creates whose answer was lost: ${JSON.stringify(idempotency.lostAnswers)}`,
  );
  let ok = verdict.lost === 0 && verdict.halfWritten === 0 && verdict.problems.length === 0;

  if (PG_RESTART && name === 'postgres') {
    const outage = await outagePhase(service, history, templates);
    if (service.child.exitCode !== null || service.child.signalCode !== null) {
      console.log(`${name}: the service DIED during the PostgreSQL outage. Its output:\n${service.output()}`);
      return false;
    }
    const after = await verify(service.baseUrl, history, templates);
    console.log(
      `${name} (PostgreSQL stopped for ${(outage.outageMs / 1000).toFixed(1)} s during load): ` +
        `answers while down ${JSON.stringify(outage.during)}; ` +
        `recovered ${outage.recoveryMs === null ? 'NEVER' : `${(outage.recoveryMs / 1000).toFixed(1)} s`} after the start; ` +
        `after recovery ${JSON.stringify(outage.afterRecovery)}; ` +
        `${after.acknowledged} acknowledged writes in all, ${after.lost} lost, ${after.halfWritten} half-written`,
    );
    verdict.problems.push(...outage.problems, ...after.problems);
    ok = ok && outage.problems.length === 0 && after.lost === 0 && after.halfWritten === 0;
    ok = ok && after.problems.length === 0;
  }

  for (const problem of [...new Set(verdict.problems)].slice(0, 30)) console.log(`  PROBLEM ${problem}`);
  if (!ok) console.log(`  service output (tail):\n${service.output().slice(-4000)}`);
  await service.kill('SIGTERM');
  return ok;
}

async function withSqlite(): Promise<boolean> {
  const file = join(tmpdir(), `facility-admin-crash-${process.pid}-${RUN_ID}.db`);
  try {
    return await runDatabase('sqlite', `sqlite:${file}`);
  } finally {
    removeSqliteFiles(file);
  }
}

async function withPostgres(): Promise<boolean> {
  const name = `facility_admin_crash_${process.pid}_${RUN_ID}`;
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(POSTGRES_ADMIN_URL);
  url.pathname = `/${name}`;
  try {
    return await runDatabase('postgres', url.toString());
  } finally {
    if (postgresStopped) await pgCtl('start');
    const client = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
    await client.connect();
    await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    await client.end();
  }
}

function cleanUpNow(): void {
  for (const service of services) service.child.kill('SIGKILL');
  if (postgresStopped) {
    postgresStopped = false;
    execFile('pg_ctlcluster', [...PG_CTL, 'start']);
  }
}

async function main(): Promise<void> {
  const watchdog = setTimeout(() => {
    console.error(`crash-test: gave up after ${WATCHDOG_MS / 60_000} minutes`);
    cleanUpNow();
    setTimeout(() => process.exit(1), 5000);
  }, WATCHDOG_MS);
  watchdog.unref();
  process.once('SIGINT', () => {
    cleanUpNow();
    setTimeout(() => process.exit(130), 3000);
  });

  let ok = true;
  try {
    if (ONLY !== 'postgres') ok = (await withSqlite()) && ok;
    if (ONLY !== 'sqlite') ok = (await withPostgres()) && ok;
  } catch (error) {
    console.error(error);
    ok = false;
  } finally {
    cleanUpNow();
    clearTimeout(watchdog);
  }
  process.exit(ok ? 0 : 1);
}

await main();
