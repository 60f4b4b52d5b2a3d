import type { MemberListQuery, Plan } from '@facility-admin/client';
import { useEffect, useState } from 'preact/hooks';
import { useFacility } from '../context';
import { formatDate } from '../format';
import { ListState, useLoad } from '../resource';
import { href } from '../router';
import { Badge, ScreenTitle } from '../ui';
import { type MemberFilterDraft, MemberFilterFields } from './filter-fields';
import { type MemberSort, SortHeader } from './sort-header';
import { fullName } from './status';

const PAGE_SIZE = 25;

/** Follows `value`, `delay` ms after it stops changing: a search sent once the person stops typing. */
function useDebounced<T>(value: T, delay: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

export function usePlans() {
  const { client, facilityId } = useFacility();
  return useLoad(
    () => client.plans.list(facilityId, { include_inactive: true, limit: 1000 }).then((page) => page.plans),
    [facilityId],
  );
}

export function planName(plans: Plan[] | undefined, id: number | null): string {
  if (id === null) return '—';
  return plans?.find((plan) => plan.id === id)?.name ?? `Plan ${id}`;
}

/** The members: search, filters, pages through next_cursor. */
export function MembersList() {
  const { client, facilityId, can } = useFacility();
  const canWrite = can('members.write');
  // The filters live in the address too (replaced, not pushed): back from a member returns to them.
  const [initial] = useState(() => new URLSearchParams(window.location.hash.split('?')[1] ?? ''));
  const [draft, setDraft] = useState<MemberFilterDraft>(() => ({
    q: initial.get('q') ?? '',
    status: initial.get('status') ?? '',
    role: initial.get('role') ?? '',
    planId: initial.get('plan_id') ?? '',
    sportId: initial.get('sport_id') ?? '',
  }));
  const { q, status, role, planId, sportId } = draft;
  const [sort, setSort] = useState<MemberSort | ''>(() => (initial.get('sort') ?? '') as MemberSort | '');
  // The cursors of the pages before this one: back is a pop.
  const [cursors, setCursors] = useState<(string | undefined)[]>([undefined]);
  const search = useDebounced(q.trim(), 300);
  const filters = [search, status, role, planId, sportId].join('|');
  // A new sort starts again from the first page: a cursor holds the sort it was issued for.
  const order = `${filters}|${sort}`;
  useEffect(() => {
    const query = new URLSearchParams();
    for (const [name, value] of Object.entries({
      q: search,
      status,
      role,
      plan_id: planId,
      sport_id: sportId,
      sort,
    })) {
      if (value) query.set(name, value);
    }
    const text = query.toString();
    window.history.replaceState(null, '', `${href(facilityId, 'members')}${text ? `?${text}` : ''}`);
  }, [facilityId, search, status, role, planId, sportId, sort]);
  useEffect(() => setCursors([undefined]), [order]);
  const cursor = cursors[cursors.length - 1];
  const plans = usePlans();
  const page = useLoad(() => {
    const query: MemberListQuery = { limit: PAGE_SIZE, cursor };
    if (search) query.q = search;
    if (status) query.status = status as MemberListQuery['status'];
    if (role) query.role = role as MemberListQuery['role'];
    if (planId) query.plan_id = Number(planId);
    if (/^\d+$/.test(sportId) && Number(sportId) > 0) query.sport_id = Number(sportId);
    if (sort) query.sort = sort;
    return client.members.list(facilityId, query);
  }, [facilityId, order, cursor]);
  const members = page.data?.members ?? [];
  const filtered = filters !== '||||';

  return (
    <section aria-labelledby="members-title">
      <div class="screen-head">
        <ScreenTitle>
          <span id="members-title">Members</span>
        </ScreenTitle>
        {canWrite && (
          <a class="button primary" href={href(facilityId, 'members', 'new')}>
            Enrol a member
          </a>
        )}
      </div>
      <search class="filters" aria-label="Find members">
        <MemberFilterFields
          draft={draft}
          onChange={(change) => setDraft({ ...draft, ...change })}
          plans={plans.data ?? []}
        />
      </search>
      <ListState
        load={page}
        what="members"
        count={page.data?.members.length}
        empty={filtered ? 'No member matches these filters.' : 'No members yet.'}
      />
      {members.length > 0 && (
        <div class="table-wrap">
          <table class="list" aria-busy={page.state === 'loading'}>
            <caption class="visually-hidden">Members, page {cursors.length}</caption>
            <thead>
              <tr>
                <SortHeader label="Name" field="first_name" sort={sort} onSort={setSort} />
                <th scope="col">Email</th>
                <th scope="col">Status</th>
                <th scope="col">Role</th>
                <th scope="col">Plan</th>
                <SortHeader label="Joined" field="joined_on" sort={sort} onSort={setSort} />
              </tr>
            </thead>
            <tbody>
              {members.map((member) => (
                <tr key={member.id}>
                  <td data-label="Name">
                    <a href={href(facilityId, 'members', member.id)}>{fullName(member)}</a>
                  </td>
                  <td data-label="Email">{member.email ?? '—'}</td>
                  <td data-label="Status">
                    <Badge value={member.status} />
                  </td>
                  <td data-label="Role">{member.role}</td>
                  <td data-label="Plan">{planName(plans.data, member.plan_id)}</td>
                  <td data-label="Joined">{formatDate(member.joined_on)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav class="pager" aria-label="Pages">
        <span class="muted" aria-live="polite">
          {page.data ? `Page ${cursors.length} · ${members.length} shown` : ''}
        </span>
        <button type="button" disabled={cursors.length < 2} onClick={() => setCursors(cursors.slice(0, -1))}>
          Previous page
        </button>
        <button
          type="button"
          disabled={!page.data?.next_cursor}
          onClick={() => page.data?.next_cursor && setCursors([...cursors, page.data.next_cursor])}
        >
          Next page
        </button>
      </nav>
    </section>
  );
}
