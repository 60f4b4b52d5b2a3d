import { useConsole } from '../console-context';
import { formatTimestamp } from '../format';
import { allows } from '../people';
import { ListState, readAll, useLoad } from '../resource';
import type { Route } from '../router';
import { Badge, ProblemNotice, ScreenTitle } from '../ui';
import { InviteForm } from './invite';
import { StaffPage } from './page';
import { rolesText } from './roles';

/** #/staff, #/staff/new, #/staff/4: the people who sign in to the console, for owners. */
export function StaffScreen({ route }: { route: Route }) {
  const { who } = useConsole();
  if (!allows(who.session, 'staff')) {
    return <ProblemNotice error={new Error('Only owners manage staff.')} />;
  }
  const [first] = route.rest;
  if (first === 'new') return <InviteForm />;
  if (first && /^\d{1,15}$/.test(first)) return <StaffPage staffUserId={Number(first)} />;
  return <StaffList />;
}

function StaffList() {
  const { who, facilities } = useConsole();
  const { client } = who;
  const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const list = useLoad(() => readAll(client.paginate((cursor) => client.staff.list({ cursor }))), [client]);
  return (
    <section>
      <div class="screen-head">
        <ScreenTitle>Staff</ScreenTitle>
        <div class="actions">
          <a class="button primary" href="#/staff/new">
            Invite a person
          </a>
        </div>
      </div>
      <p class="muted">The people who sign in to this console, and what each may do where.</p>
      <ListState load={list} what="staff" count={list.data?.length} empty="No one yet: invite a person." />
      {list.data && list.data.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">Staff</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">State</th>
                <th scope="col">Roles</th>
                <th scope="col">Last sign-in</th>
              </tr>
            </thead>
            <tbody>
              {list.data.map((person) => (
                <tr key={person.id}>
                  <td data-label="Name">
                    <a href={`#/staff/${person.id}`}>{person.name}</a>
                  </td>
                  <td data-label="E-mail">{person.email}</td>
                  <td data-label="State">
                    <Badge value={person.state} />
                  </td>
                  <td data-label="Roles">{rolesText(person.roles, facilities)}</td>
                  <td data-label="Last sign-in">{formatTimestamp(person.last_sign_in_at, timeZone)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
