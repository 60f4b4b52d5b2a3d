/**
 * CPU time per request of the processes a measurement keeps busy, read from
 * /proc around it: the process measured (with its workers), the PostgreSQL
 * server when it runs on this machine, and the load generator. On two cores
 * shared by all three, these say which of them sets the pace, and how much
 * of the machine is left for a second worker.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Microseconds of CPU (user + system) per request answered. */
export interface CpuPerRequest {
  service: number;
  /** The PostgreSQL server's processes; undefined on SQLite (it runs inside the service). */
  database?: number;
  loadGenerator: number;
}

/** Reads the CPU so far; its result, given the requests answered since, gives the CPU per request. */
export type CpuMeter = () => (requests: number) => CpuPerRequest;

const TICK_US = 1e6 / Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

/** utime + stime of a process (all its threads), and cutime + cstime: its children that have exited. */
function ticksOf(pid: number): { own: number; exitedChildren: number } {
  try {
    // The command name, in parentheses, may hold spaces; the fields after it are fixed.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return {
      own: Number(fields[11]) + Number(fields[12]),
      exitedChildren: Number(fields[13]) + Number(fields[14]),
    };
  } catch {
    return { own: 0, exitedChildren: 0 };
  }
}

function pids(args: string[]): number[] {
  try {
    return execFileSync('pgrep', args, { encoding: 'utf8' }).trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** A process and its children (the service's workers). */
export function processAndChildren(pid: number): number[] {
  return [pid, ...pids(['-P', String(pid)])];
}

function treeTicks(pid: number): number {
  return processAndChildren(pid).reduce((sum, p) => sum + ticksOf(p).own, 0);
}

/**
 * Every process of the PostgreSQL server: the postmaster, its live children
 * and, through the postmaster's cutime, the backends that ended meanwhile
 * (a pool closes idle connections).
 */
function postgresTicks(): number {
  const all = pids(['-x', 'postgres']);
  const postmaster = pids(['-o', '-x', 'postgres'])[0];
  if (postmaster === undefined) return 0;
  return all.reduce((sum, p) => sum + ticksOf(p).own, 0) + ticksOf(postmaster).exitedChildren;
}

function benchTicks(): number {
  const { own, exitedChildren } = ticksOf(process.pid);
  return own + exitedChildren;
}

/**
 * A meter for one process measured under load. The load generator is this
 * process: wrk runs as its child and has exited when the meter is read (its
 * CPU is this process's cutime), autocannon runs inside it. The database
 * server is counted only when it runs here (a local DATABASE_URL).
 */
export function cpuMeter(servicePid: number, databaseUrl: string): CpuMeter {
  const url = new URL(databaseUrl);
  const localPostgres =
    url.protocol.startsWith('postgres') && ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  return () => {
    const service = treeTicks(servicePid);
    const database = localPostgres ? postgresTicks() : undefined;
    const loadGenerator = benchTicks();
    return (requests) => {
      const perRequest = (ticks: number) => (ticks * TICK_US) / Math.max(requests, 1);
      return {
        service: perRequest(treeTicks(servicePid) - service),
        database: database === undefined ? undefined : perRequest(postgresTicks() - database),
        loadGenerator: perRequest(benchTicks() - loadGenerator),
      };
    };
  };
}
