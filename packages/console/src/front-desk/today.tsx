import { type CheckIn, paginate } from '@facility-admin/client';
import { useEffect, useState } from 'preact/hooks';
import { reasonWords } from '../access-words';
import { useFacility } from '../context';
import { formatTime, startOfTodayIn } from '../format';
import { fullName } from '../members/status';
import { ListState, readAll, useLoad } from '../resource';
import { href } from '../router';
import { useWrite, WriteOutcome } from '../write';

/** Rows shown: the newest; a busy day's whole log is the check-ins API's. */
const SHOWN = 50;
/** The door records check-ins too: the desk reads them again this often (ms). */
const REFRESH_EVERY = 30_000;

/** Who is in now: members and their guests, against the policy's limit. */
export function OccupancyPanel({ round }: { round: number }) {
  const { client, facilityId } = useFacility();
  const occupancy = useLoad(() => client.occupancy.get(facilityId), [facilityId, round]);
  const now = occupancy.data;
  return (
    <section class="occupancy" aria-labelledby="occupancy-heading">
      <h2 id="occupancy-heading">In now</h2>
      {now ? (
        <p class="occupancy-count" aria-live="polite">
          <strong>{now.total}</strong>
          {now.max_occupancy !== null && <span> of {now.max_occupancy}</span>}
          <span class="muted small">
            {' '}
            ({now.present} {now.present === 1 ? 'member' : 'members'}, {now.guests}{' '}
            {now.guests === 1 ? 'guest' : 'guests'})
          </span>
        </p>
      ) : (
        <ListState load={occupancy} what="the occupancy" count={undefined} empty="" />
      )}
    </section>
  );
}

/** Names of the members in the list, read once each (a check-in carries the member's id only). */
function useMemberNames(ids: number[], known: Map<number, string>): Map<number, string> {
  const { client, facilityId } = useFacility();
  const [names, setNames] = useState(known);
  const missing = ids.filter((id) => !names.has(id));
  useEffect(() => {
    if (missing.length === 0) return;
    Promise.all(
      missing.map((id) =>
        client.members.get(facilityId, id).then(
          (m) => [id, fullName(m.data)] as const,
          () => [id, `Member ${id}`] as const,
        ),
      ),
    ).then((found) => setNames((current) => new Map([...current, ...known, ...found])));
  }, [missing.join(',')]);
  return new Map([...names, ...known]);
}

/**
 * Today's check-ins (from the facility's midnight), newest first, allowed and
 * denied; a member let in can be checked out. `round` reads them again.
 */
export function TodayCheckIns({
  round,
  known,
  onChange,
}: {
  round: number;
  /** Names the desk already has (from its decisions), by member id. */
  known: Map<number, string>;
  /** After a check-out: the occupancy changes. */
  onChange: () => void;
}) {
  const { client, facilityId, timeZone, can } = useFacility();
  const [tick, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), REFRESH_EVERY);
    return () => clearInterval(timer);
  }, []);
  const list = useLoad(async () => {
    const since = startOfTodayIn(timeZone);
    const all = await readAll(
      paginate((cursor) =>
        client.checkIns.list(facilityId, { since, limit: 100, ...(cursor ? { cursor } : {}) }),
      ),
    );
    return all.reverse();
  }, [facilityId, timeZone, round, tick]);
  const checkOut = useWrite();
  const rows = list.data?.slice(0, SHOWN);
  const names = useMemberNames(
    [...new Set((rows ?? []).flatMap((r) => (r.member_id ? [r.member_id] : [])))],
    known,
  );
  const who = (row: CheckIn) =>
    row.member_id === null
      ? `Unknown card${row.credential_last4 ? ` ····${row.credential_last4}` : ''}`
      : (names.get(row.member_id) ?? `Member ${row.member_id}`);

  return (
    <section class="today" aria-labelledby="today-heading">
      <h2 id="today-heading">Today's check-ins</h2>
      <WriteOutcome write={checkOut} />
      <ListState
        load={list}
        what="today's check-ins"
        count={rows?.length}
        empty="No one has checked in today."
      />
      {rows && rows.length > 0 && (
        <div class="table-wrap">
          <table class="list check-ins" aria-busy={list.state === 'loading'}>
            <caption class="visually-hidden">Today's check-ins, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Who</th>
                <th scope="col">Decision</th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.id} data-decision={row.decision}>
                  <td data-label="Time" class="nowrap">
                    {formatTime(row.checked_in_at, timeZone)}
                  </td>
                  <td data-label="Who">
                    {row.member_id === null ? (
                      who(row)
                    ) : (
                      <a href={href(facilityId, 'members', row.member_id)}>{who(row)}</a>
                    )}
                    {row.guests > 0 && <span class="muted small"> +{row.guests}</span>}
                  </td>
                  <td data-label="Decision">
                    <div class="decision-cell">
                      <span>
                        <span class={`badge badge-${row.decision}`}>
                          {row.decision === 'allow' ? 'allowed' : 'denied'}
                        </span>
                        {row.reasons.length > 0 && (
                          <span class="muted small"> {row.reasons.map(reasonWords).join(', ')}</span>
                        )}
                        {row.checked_out_at && (
                          <span class="muted small"> out {formatTime(row.checked_out_at, timeZone)}</span>
                        )}
                      </span>
                      {row.decision === 'allow' && row.checked_out_at === null && can('access') && (
                        <button
                          type="button"
                          disabled={checkOut.busy}
                          onClick={() =>
                            checkOut.run(() => client.checkIns.checkOut(facilityId, row.id), {
                              after: onChange,
                              notice: `${who(row)} checked out.`,
                            })
                          }
                        >
                          Check out<span class="visually-hidden"> {who(row)}</span>
                        </button>
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {list.data && list.data.length > SHOWN && (
        <p class="muted small">
          The latest {SHOWN} of {list.data.length} today.
        </p>
      )}
    </section>
  );
}
