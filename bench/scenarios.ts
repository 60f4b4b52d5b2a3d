/** The benchmark's scenarios: each plans one request at a time from the seeded data. */
import { encodeCursor } from '../src/core/paging.js';
import type { PlannedRequest } from './load.js';
import { LARGE_FACILITY, type Seeded, seededCredential, seededEmail, seededMemberAllowed } from './seed.js';

export interface Scenario {
  name: string;
  /** Reads are compared with the floor. */
  read: boolean;
  plan: (seeded: Seeded) => PlannedRequest;
  /** Path to page through with next_cursor (walk scenarios). */
  chain?: string;
  /** Connections, when not the run's: a scenario whose requests take seconds would only queue behind them. */
  connections?: number;
  /** A page of members: compared with the floor's page, not its point read. */
  page?: boolean;
}

const rand = (min: number, max: number) => min + Math.floor(Math.random() * (max - min + 1));
/**
 * A page's query string: from the start, or after member `id` with the
 * cursor the service itself would issue (it issues none for id 0, and
 * answers one with 400).
 */
const pageAfter = (id: number, filters = '') => {
  const params = [filters, id >= 1 ? `cursor=${encodeCursor(id)}` : ''].filter(Boolean).join('&');
  return params === '' ? '' : `?${params}`;
};
const F = `/admin/facilities/${LARGE_FACILITY}`;
const member = (s: Seeded) => rand(...s.memberIdRange);
const plan = (s: Seeded) => rand(...s.planIdRange);
const get = (path: string): PlannedRequest => ({ method: 'GET', path });
/** Creates go to the small facilities but the first, which stays at 1,000 members for SMALL_PAGE. */
const smallFacility = (s: Seeded) => s.smallFacilities[rand(1, s.smallFacilities.length - 1)];
const newMemberBody = (facility: number) => ({
  facility_id: facility,
  first_name: 'Bench',
  last_name: `Runner${rand(1, 1e9)}`,
});

/** The floor's requests (bench/floor.ts): the same member rows by primary key, the same pages, a bare INSERT. */
export const FLOOR: Scenario = { name: 'floor', read: true, plan: (s) => get(`/members/${member(s)}`) };
export const FLOOR_PAGE: Scenario = {
  name: 'floor: a page',
  read: true,
  plan: (s) => get(`/members?facility=${LARGE_FACILITY}&after=${Math.max(0, member(s) - 100)}`),
};
export const FLOOR_INSERT: Scenario = {
  name: 'floor: an INSERT',
  read: false,
  plan: (s) => ({
    method: 'POST',
    path: '/members',
    body: JSON.stringify(newMemberBody(smallFacility(s))),
  }),
};

/** PostgreSQL's write ceiling: the statements of the service's create, run by the floor with nothing else. */
export const FLOOR_CREATE: Scenario = {
  name: "floor: the create's statements",
  read: false,
  plan: (s) => ({
    method: 'POST',
    path: '/members/as-the-service',
    body: JSON.stringify(newMemberBody(smallFacility(s))),
  }),
};

export const GET_MEMBER: Scenario = {
  name: 'GET one member',
  read: true,
  plan: (s) => get(`${F}/members/${member(s)}`),
};

/** A page of 100 at a random position in the facility of 1,000,000 members... */
export const LARGE_PAGE: Scenario = {
  name: 'list 100 members, any page',
  read: true,
  page: true,
  plan: (s) => get(`${F}/members${pageAfter(member(s) - 100)}`),
};

/** ...and in a facility of 1,000: the two must cost about the same. */
export const SMALL_PAGE: Scenario = {
  name: 'list 100 members, any page, 1,000-member facility',
  read: true,
  page: true,
  plan: (s) => {
    const [first, last] = s.smallMemberIdRange;
    return get(`/admin/facilities/${s.smallFacilities[0]}/members${pageAfter(rand(first, last - 99) - 1)}`);
  },
};

/**
 * A search that matches one member: its email, whose domain every member
 * shares. On SQLite such a search reads the facility's members until it has
 * a page or none are left, and PostgreSQL's trigram index finds the member
 * past the first 1,000 (docs/performance.md): the page whose cost may grow
 * with the facility. Two connections: at a million members a request takes
 * a second or more on SQLite.
 */
const searchForOne = (facility: number, first: number, id: number) =>
  get(`/admin/facilities/${facility}/members?q=${encodeURIComponent(seededEmail(facility, id - first + 1))}`);

export const LARGE_RARE_SEARCH: Scenario = {
  name: 'list 100, q matching one member',
  read: true,
  connections: 2,
  plan: (s) => searchForOne(LARGE_FACILITY, s.memberIdRange[0], member(s)),
};

export const SMALL_RARE_SEARCH: Scenario = {
  name: 'list 100, q matching one member, 1,000-member facility',
  read: true,
  connections: 2,
  plan: (s) => searchForOne(s.smallFacilities[0], s.smallMemberIdRange[0], rand(...s.smallMemberIdRange)),
};

export const POST_MEMBER: Scenario = {
  name: 'POST member',
  read: false,
  plan: (s) => {
    const { facility_id, ...body } = newMemberBody(smallFacility(s));
    return { method: 'POST', path: `/admin/facilities/${facility_id}/members`, body: JSON.stringify(body) };
  },
};

/** A seeded member of the large facility whom the door lets in (seed.ts, seededMemberAllowed), by their i. */
const allowedMember = (s: Seeded) => {
  for (;;) {
    const i = rand(1, s.largeMembers);
    if (seededMemberAllowed(i)) return i;
  }
};
const decision = (s: Seeded, dryRun: boolean): PlannedRequest => ({
  method: 'POST',
  path: `${F}/access-decisions`,
  body: JSON.stringify({ credential: seededCredential(allowedMember(s)), dry_run: dryRun }),
});

/** A door asking by card without recording anything (issue 40: ≥ 0.5 × GET one member). */
export const DRY_RUN_DECISION: Scenario = {
  name: 'access decision by card, dry run',
  read: true,
  plan: (s) => decision(s, true),
};

/**
 * A door asking by card, recorded (issue 40: ≥ 0.8 × POST member; p99 within
 * 5 × p50). Each request is a random one of the three in four seeded members who
 * are let in: no visit limit or anti-passback denies, and two requests rarely
 * wait on one member's lock.
 */
export const RECORDED_DECISION: Scenario = {
  name: 'access decision by card, recorded',
  read: false,
  plan: (s) => decision(s, false),
};

export const PATCH_MEMBER: Scenario = {
  name: 'PATCH member',
  read: false,
  plan: (s) => ({
    method: 'PATCH',
    path: `${F}/members/${member(s)}`,
    body: JSON.stringify({ notes: `n${rand(1, 1e9)}` }),
  }),
};

export const SCENARIOS: Scenario[] = [
  GET_MEMBER,
  { name: 'GET one plan', read: true, plan: (s) => get(`${F}/plans/${plan(s)}`) },
  LARGE_PAGE,
  SMALL_PAGE,
  {
    name: 'list 100, status + role filter',
    read: true,
    page: true,
    plan: (s) => get(`${F}/members${pageAfter(member(s) - 1000, 'status=active,frozen&role=member')}`),
  },
  {
    name: 'list 100, q search',
    read: true,
    page: true,
    plan: (s) => get(`${F}/members${pageAfter(member(s) - 1000, 'q=surname1')}`),
  },
  SMALL_RARE_SEARCH,
  LARGE_RARE_SEARCH,
  {
    name: 'walk 10 pages with the cursor (per page)',
    read: true,
    page: true,
    plan: (s) => get(`${F}/members${pageAfter(member(s) - 2000)}`),
    chain: `${F}/members`,
  },
  { name: 'GET policy', read: true, plan: () => get(`${F}/policy`) },
  POST_MEMBER,
  PATCH_MEMBER,
  DRY_RUN_DECISION,
  RECORDED_DECISION,
  {
    name: 'PUT entitlement',
    read: false,
    plan: (s) => ({
      method: 'PUT',
      path: `${F}/plans/${plan(s)}/entitlements/bench_${rand(1, 20)}`,
      body: JSON.stringify({ value: rand(1, 1e6) }),
    }),
  },
];
