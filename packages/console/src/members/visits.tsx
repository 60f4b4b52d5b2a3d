import { type Member, paginate } from '@facility-admin/client';
import { reasonWords } from '../access-words';
import { useFacility } from '../context';
import { formatTimestamp } from '../format';
import { ListState, readAll, useLoad } from '../resource';

/** How far back the panel reads: a member's whole log is the check-ins API's. */
const DAYS_BACK = 90;
/** Visits listed, newest first. */
const SHOWN = 10;

/** The member's last check-ins (allowed and denied) and when they last came in. */
export function VisitsPanel({ member }: { member: Member }) {
  const { client, facilityId, timeZone } = useFacility();
  const visits = useLoad(async () => {
    const since = new Date(Date.now() - DAYS_BACK * 86_400_000).toISOString();
    const all = await readAll(
      paginate((cursor) =>
        client.checkIns.list(facilityId, {
          member_id: member.id,
          since,
          limit: 100,
          ...(cursor ? { cursor } : {}),
        }),
      ),
    );
    return all.reverse().slice(0, SHOWN);
  }, [facilityId, member.id, member.last_check_in_at]);
  return (
    <section class="visits" aria-labelledby="visits-heading">
      <h2 id="visits-heading">Recent visits</h2>
      <p>
        Last check-in:{' '}
        <strong>
          {member.last_check_in_at ? formatTimestamp(member.last_check_in_at, timeZone) : 'never'}
        </strong>
      </p>
      <ListState
        load={visits}
        what="recent visits"
        count={visits.data?.length}
        empty={`No check-ins in the last ${DAYS_BACK} days.`}
      />
      {visits.data && visits.data.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">Recent check-ins of this member, newest first</caption>
            <thead>
              <tr>
                <th scope="col">When</th>
                <th scope="col">Decision</th>
                <th scope="col">Out</th>
              </tr>
            </thead>
            <tbody>
              {visits.data.map((visit) => (
                <tr key={visit.id}>
                  <td data-label="When">{formatTimestamp(visit.checked_in_at, timeZone)}</td>
                  <td data-label="Decision">
                    <span>
                      <span class={`badge badge-${visit.decision}`}>
                        {visit.decision === 'allow' ? 'allowed' : 'denied'}
                      </span>
                      {visit.reasons.length > 0 && (
                        <span class="muted small">
                          {' '}
                          {visit.reasons.map((r) => reasonWords(r)).join(', ')}
                        </span>
                      )}
                    </span>
                  </td>
                  <td data-label="Out">
                    {visit.checked_out_at ? formatTimestamp(visit.checked_out_at, timeZone) : '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
