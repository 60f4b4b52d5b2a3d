import { useConsole } from '../console-context';
import { allows } from '../people';
import { href, type Route } from '../router';
import { Badge, Empty, ScreenTitle } from '../ui';
import { FacilityCreate } from './create';
import { FacilityPage } from './page';

/** #/facilities, #/facilities/new, #/facilities/3: the facilities by name; owners create, edit, archive. */
export function FacilitiesScreen({ route }: { route: Route }) {
  const [first] = route.rest;
  if (first === 'new') return <FacilityCreate />;
  if (first && /^\d{1,15}$/.test(first)) return <FacilityPage facilityId={Number(first)} />;
  return <FacilityList />;
}

function FacilityList() {
  const { who, facilities } = useConsole();
  const canWrite = allows(who.session, 'facilities.write');
  return (
    <section>
      <div class="screen-head">
        <ScreenTitle>Facilities</ScreenTitle>
        {canWrite && (
          <div class="actions">
            <a class="button primary" href="#/facilities/new">
              Add a facility
            </a>
          </div>
        )}
      </div>
      {facilities.length === 0 && <Empty>No facility has a name yet.</Empty>}
      {facilities.length > 0 && (
        <div class="table-wrap">
          <table class="list">
            <caption class="visually-hidden">Facilities</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Id</th>
                <th scope="col">Address</th>
                <th scope="col">State</th>
                <th scope="col">
                  <span class="visually-hidden">Open</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {facilities.map((facility) => (
                <tr key={facility.id}>
                  <td data-label="Name">
                    <a href={`#/facilities/${facility.id}`}>{facility.name ?? `Facility ${facility.id}`}</a>
                  </td>
                  <td data-label="Id">{facility.id}</td>
                  <td data-label="Address">{facility.address ?? '—'}</td>
                  <td data-label="State">
                    <Badge value={facility.status} />
                  </td>
                  <td>
                    {facility.status === 'active' && (
                      <a href={href(facility.id, 'members')}>
                        Open<span class="visually-hidden"> {facility.name ?? facility.id}</span>
                      </a>
                    )}
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
