import { type Freeze, type Member, type MemberStatus, paginate } from '@facility-admin/client';
import { useConfirm } from '../confirm';
import { useFacility } from '../context';
import { formatDate, formatTimestamp, todayIn } from '../format';
import { ListState, readAll, useResource } from '../resource';
import { WriteOutcome } from '../write';
import { FreezeForm } from './freeze-form';

export type FreezeState = 'planned' | 'under way' | 'ended' | 'cancelled';

/** Where a freeze stands on the facility's today: cancelled first, then by its dates. */
export function freezeState(freeze: Freeze, today: string): FreezeState {
  if (freeze.cancelled_at !== null) return 'cancelled';
  if (freeze.starts_on > today) return 'planned';
  if (freeze.ends_on !== null && freeze.ends_on < today) return 'ended';
  return 'under way';
}

/** A freeze not over yet can be cancelled; one whose last day is today ends anyway, so it offers nothing. */
function cancellable(freeze: Freeze, today: string): boolean {
  const state = freezeState(freeze, today);
  return (
    state === 'planned' || (state === 'under way' && (freeze.ends_on === null || freeze.ends_on > today))
  );
}

/** Only these members can be frozen (the service says 409 `invalid_status_transition` to others). */
const FREEZABLE = new Set<MemberStatus>(['active', 'frozen']);

/**
 * The member's dated freezes: every one (a member has at most 100), with its
 * state; admins plan new ones and cancel those not over. A change reloads the
 * member too: a freeze from today, or one cancelled while under way, moves its status.
 */
export function FreezesPanel({ member, etag, reload }: { member: Member; etag: string; reload: () => void }) {
  const { client, facilityId, can, timeZone } = useFacility();
  const canWrite = can('members.write');
  // Keyed on the ETag as well: a move to or from frozen opens or ends a freeze.
  // A change reads the member again too (`reload`), which reads the freezes again.
  const list = useResource(async () => {
    const all = await readAll(
      paginate((cursor) => client.freezes.list(facilityId, member.id, cursor ? { cursor } : {})),
    );
    return all.sort((a, b) => a.starts_on.localeCompare(b.starts_on) || a.id - b.id);
  }, [facilityId, member.id, etag]);
  const cancellation = useConfirm<Freeze>();
  const today = todayIn(timeZone);
  const changed = () => {
    list.refresh();
    reload();
  };
  const freezes = list.data;

  return (
    <section class="freezes" aria-labelledby="freezes-heading">
      <h2 id="freezes-heading">Freezes</h2>
      <ListState load={list} what="freezes" count={freezes?.length} empty="No freezes." />
      <WriteOutcome write={list} />
      {freezes && freezes.length > 0 && (
        <div class="table-wrap">
          <table class="list" aria-busy={list.state === 'loading'}>
            <caption class="visually-hidden">Freezes of this member</caption>
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">Reason</th>
                <th scope="col">State</th>
                {canWrite && (
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                )}
              </tr>
            </thead>
            <tbody>
              {freezes.map((freeze) => {
                const state = freezeState(freeze, today);
                return (
                  <tr key={freeze.id}>
                    <td data-label="From">{formatDate(freeze.starts_on)}</td>
                    <td data-label="To">
                      {freeze.ends_on === null ? 'Open-ended' : formatDate(freeze.ends_on)}
                    </td>
                    <td data-label="Reason">{freeze.reason ?? '—'}</td>
                    <td data-label="State">
                      {/* One box: in the narrow layout the cell is a flex row, which would stretch the badge. */}
                      <span>
                        <span class={`badge badge-freeze-${state.replace(' ', '-')}`}>{state}</span>
                        {freeze.cancelled_at !== null && (
                          <span class="muted small">
                            {' '}
                            on {formatTimestamp(freeze.cancelled_at, timeZone)}
                          </span>
                        )}
                      </span>
                    </td>
                    {canWrite && (
                      <td class="row-actions">
                        {cancellable(freeze, today) && (
                          <button type="button" class="danger" onClick={() => cancellation.ask(freeze)}>
                            Cancel
                            <span class="visually-hidden">
                              {' '}
                              the freeze from {formatDate(freeze.starts_on)}
                            </span>
                          </button>
                        )}
                      </td>
                    )}
                  </tr>
                );
              })}
            </tbody>
          </table>
        </div>
      )}
      {cancellation.dialog((freeze) => ({
        title: `Cancel the freeze from ${formatDate(freeze.starts_on)}?`,
        confirmLabel: 'Cancel freeze',
        cancelLabel: 'Keep it',
        danger: true,
        body: (
          <p>
            {freezeState(freeze, today) === 'planned'
              ? 'The freeze will not start. It stays listed as cancelled.'
              : 'The freeze ends today: the member is active again from tomorrow.'}
          </p>
        ),
        onConfirm: () =>
          list.write(() => client.freezes.cancel(facilityId, member.id, freeze.id), { after: changed }),
      }))}
      {canWrite &&
        (FREEZABLE.has(member.status) ? (
          <FreezeForm memberId={member.id} onPlanned={changed} />
        ) : (
          <p class="muted">Only an active or frozen member can have a freeze planned.</p>
        ))}
    </section>
  );
}
