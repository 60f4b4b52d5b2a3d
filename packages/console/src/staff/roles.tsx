import type { Facility, Role, RoleGrant } from '@facility-admin/client';
import { useId } from 'preact/hooks';
import { facilityName, ROLE_HINTS, ROLE_WORDS } from '../people';

export const STAFF_ROLES: Role[] = ['owner', 'manager', 'front_desk', 'viewer'];

/** A person's roles in words: "Manager at Riverside, Front desk at all facilities". */
export function rolesText(roles: readonly RoleGrant[], facilities: readonly Facility[]): string {
  if (roles.length === 0) return 'No role';
  return roles
    .map((grant) => `${ROLE_WORDS[grant.role]} · ${facilityName(facilities, grant.facility_id)}`)
    .join(', ');
}

/**
 * The roles editor: one row per facility (or all facilities), each with its
 * role; the service keeps one role per facility, so a facility already
 * chosen is not offered again.
 */
export function RolesEditor({
  roles,
  facilities,
  onChange,
}: {
  roles: RoleGrant[];
  facilities: readonly Facility[];
  onChange: (roles: RoleGrant[]) => void;
}) {
  const id = useId();
  const options: (number | null)[] = [
    null,
    ...facilities.filter((f) => f.status === 'active').map((f) => f.id),
  ];
  const set = (index: number, grant: RoleGrant) =>
    onChange(roles.map((old, i) => (i === index ? grant : old)));
  const unused = options.filter((id) => !roles.some((grant) => grant.facility_id === id));
  return (
    <fieldset class="roles">
      <legend>Roles</legend>
      {roles.length === 0 && (
        <p class="muted small">No role yet: the person could sign in but see nothing.</p>
      )}
      {roles.map((grant, index) => (
        <div class="role-row" key={index}>
          <label class="visually-hidden" for={`${id}-facility-${index}`}>
            Facility of role {index + 1}
          </label>
          <select
            id={`${id}-facility-${index}`}
            value={grant.facility_id === null ? '' : String(grant.facility_id)}
            onChange={(e) => {
              const value = e.currentTarget.value;
              set(index, { ...grant, facility_id: value === '' ? null : Number(value) });
            }}
          >
            {options
              .filter((choice) => choice === grant.facility_id || unused.includes(choice))
              .map((choice) => (
                <option key={choice ?? 'all'} value={choice === null ? '' : String(choice)}>
                  {facilityName(facilities, choice)}
                </option>
              ))}
          </select>
          <label class="visually-hidden" for={`${id}-role-${index}`}>
            Role {index + 1}
          </label>
          <select
            id={`${id}-role-${index}`}
            value={grant.role}
            onChange={(e) => set(index, { ...grant, role: e.currentTarget.value as Role })}
          >
            {STAFF_ROLES.map((role) => (
              <option key={role} value={role}>
                {ROLE_WORDS[role]}
              </option>
            ))}
          </select>
          <span class="small muted">{ROLE_HINTS[grant.role]}</span>
          <button type="button" onClick={() => onChange(roles.filter((_, i) => i !== index))}>
            Remove<span class="visually-hidden"> role {index + 1}</span>
          </button>
        </div>
      ))}
      {unused.length > 0 && (
        <button
          type="button"
          onClick={() =>
            onChange([...roles, { facility_id: unused[unused.length > 1 ? 1 : 0] ?? null, role: 'viewer' }])
          }
        >
          Add a role
        </button>
      )}
    </fieldset>
  );
}
