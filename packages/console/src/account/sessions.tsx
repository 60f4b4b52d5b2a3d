import type { OwnSession } from '@facility-admin/client';
import { useConfirm } from '../confirm';
import { useConsole } from '../console-context';
import { formatTimestamp } from '../format';
import { ListState, useResource } from '../resource';
import { WriteOutcome } from '../write';

const METHOD_WORDS: Record<string, string> = {
  password: 'Password',
  oidc: 'Identity provider',
  link: 'One-time link',
};

/** My sessions: where I am signed in; any but this one can be ended. */
export function MySessions({ round }: { round: number }) {
  const { who } = useConsole();
  const { client } = who;
  const sessions = useResource(async () => (await client.session.listMine()).sessions, [client, round]);
  const ending = useConfirm<OwnSession>();
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return (
    <section aria-labelledby="sessions-title">
      <h2 id="sessions-title">My sessions</h2>
      <WriteOutcome write={sessions} />
      <ListState load={sessions} what="your sessions" count={sessions.data?.length} empty="No session." />
      {sessions.data && sessions.data.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">My sessions</caption>
            <thead>
              <tr>
                <th scope="col">Browser</th>
                <th scope="col">Signed in with</th>
                <th scope="col">Since</th>
                <th scope="col">Last used</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td data-label="Browser">{session.user_agent ?? 'Unknown browser'}</td>
                  <td data-label="Signed in with">{METHOD_WORDS[session.method] ?? session.method}</td>
                  <td data-label="Since">{formatTimestamp(session.created_at, timeZone)}</td>
                  <td data-label="Last used">{formatTimestamp(session.last_seen_at, timeZone)}</td>
                  <td>
                    {session.current ? (
                      <strong>This session</strong>
                    ) : (
                      <button type="button" onClick={() => ending.ask(session)}>
                        End
                        <span class="visually-hidden">
                          {' '}
                          the session of {formatTimestamp(session.created_at, timeZone)}
                        </span>
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {ending.dialog((session) => ({
        title: 'End this session?',
        confirmLabel: 'End session',
        danger: true,
        body: (
          <p>
            The browser signed in then ({session.user_agent ?? 'unknown'}) is signed out at its next request.
          </p>
        ),
        onConfirm: () =>
          sessions.write(() => client.session.endMine(session.id), { notice: 'Session ended.' }),
      }))}
    </section>
  );
}
