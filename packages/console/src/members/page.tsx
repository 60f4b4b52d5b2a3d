import type { Member, MemberUpdate } from '@facility-admin/client';
import type { ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import { AuditTimeline } from '../audit';
import { useConfirm } from '../confirm';
import { useFacility } from '../context';
import { formatDate, formatTimestamp } from '../format';
import { NotLoaded, useResource } from '../resource';
import { href } from '../router';
import { Badge, ResourceHead } from '../ui';
import { WriteOutcome } from '../write';
import { CredentialsPanel } from './credentials';
import { bodyOf, MemberForm } from './form';
import { FreezesPanel } from './freezes';
import { planName, usePlans } from './list';
import { allowedTransitions, fullName, moveLabel, statusReason } from './status';
import { VisitsPanel } from './visits';

/** Panels below the member's fields (freezes, credentials, visits): each gets the member and its ETag, and a way to reload. */
export const MEMBER_PANELS: ComponentType<{ member: Member; etag: string; reload: () => void }>[] = [
  FreezesPanel,
  CredentialsPanel,
  VisitsPanel,
];

/**
 * Fields the page shows by name: every field of the client's `Member` (the
 * typecheck fails when the document adds one); any other field a newer
 * service sends is listed after them as it comes.
 */
const SHOWN: Record<keyof Member, true> = {
  id: true,
  facility_id: true,
  first_name: true,
  last_name: true,
  email: true,
  phone: true,
  date_of_birth: true,
  sport_id: true,
  role: true,
  status: true,
  status_reason: true,
  plan_id: true,
  external_id: true,
  joined_on: true,
  ends_on: true,
  waiver_signed_at: true,
  notes: true,
  status_changed_at: true,
  created_at: true,
  updated_at: true,
  deleted_at: true,
  last_check_in_at: true,
  allowed_transitions: true,
};

export function MemberPage({ memberId }: { memberId: number }) {
  const { client, facilityId, can, timeZone } = useFacility();
  const canWrite = can('members.write');
  const [editing, setEditing] = useState(false);
  const loaded = useResource(() => client.members.get(facilityId, memberId), [facilityId, memberId], {
    onReload: () => setEditing(false),
  });
  const plans = usePlans();
  const removal = useConfirm<'remove'>();
  if (loaded.data === undefined) return <NotLoaded load={loaded} what="the member" />;
  const { data: member, etag } = loaded.data;
  const move = (status: Member['status']) =>
    loaded.write(() => client.members.update(facilityId, memberId, { status }, { ifMatch: etag }));
  const extras = Object.entries(member).filter(([field]) => !Object.hasOwn(SHOWN, field));

  return (
    <section>
      <ResourceHead list="members" label="Members" title={fullName(member)}>
        <Badge value={member.status} />
      </ResourceHead>
      <WriteOutcome write={loaded} onReload={loaded.reload} />
      {canWrite && !editing && (
        <fieldset class="actions wrap">
          <legend class="visually-hidden">Member actions</legend>
          <button type="button" onClick={() => setEditing(true)}>
            Edit
          </button>
          {allowedTransitions(member).map((to) => (
            <button type="button" key={to} onClick={() => move(to)}>
              {moveLabel(member.status, to)}
            </button>
          ))}
          {member.status !== 'removed' && can('members.delete') && (
            <button type="button" class="danger" onClick={() => removal.ask('remove')}>
              Remove
            </button>
          )}
        </fieldset>
      )}
      {removal.dialog(() => ({
        title: `Remove ${fullName(member)}?`,
        confirmLabel: 'Remove',
        danger: true,
        body: <p>The member is marked removed and left out of lists. You can restore them later.</p>,
        onConfirm: () => loaded.write(() => client.members.delete(facilityId, memberId, { ifMatch: etag })),
      }))}
      {editing ? (
        <MemberForm
          member={member}
          plans={plans.data ?? []}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onReload={loaded.reload}
          onSubmit={async (draft) => {
            await client.members.update(facilityId, memberId, bodyOf(draft, member) as MemberUpdate, {
              ifMatch: etag,
            });
            loaded.saved();
          }}
        />
      ) : (
        <dl class="details">
          <dt>Email</dt>
          <dd>{member.email ?? '—'}</dd>
          <dt>Phone</dt>
          <dd>{member.phone ?? '—'}</dd>
          <dt>Date of birth</dt>
          <dd>{formatDate(member.date_of_birth)}</dd>
          <dt>Role</dt>
          <dd>{member.role}</dd>
          <dt>Plan</dt>
          <dd>
            {member.plan_id === null ? (
              '—'
            ) : (
              <a href={href(facilityId, 'plans', member.plan_id)}>{planName(plans.data, member.plan_id)}</a>
            )}
          </dd>
          <dt>Sport id</dt>
          <dd>{member.sport_id ?? 'All sports'}</dd>
          <dt>Joined on</dt>
          <dd>{formatDate(member.joined_on)}</dd>
          <dt>Membership ends</dt>
          <dd>{member.ends_on ? formatDate(member.ends_on) : 'No end date'}</dd>
          <dt>Waiver signed</dt>
          <dd>
            {member.waiver_signed_at ? formatTimestamp(member.waiver_signed_at, timeZone) : 'Not signed'}
          </dd>
          <dt>Last check-in</dt>
          <dd>{member.last_check_in_at ? formatTimestamp(member.last_check_in_at, timeZone) : 'Never'}</dd>
          <dt>Status since</dt>
          <dd>{formatTimestamp(member.status_changed_at, timeZone)}</dd>
          <dt>Status reason</dt>
          <dd>{statusReason(member.status_reason)}</dd>
          <dt>External id</dt>
          <dd>{member.external_id ?? '—'}</dd>
          <dt>Notes</dt>
          <dd class="pre">{member.notes ?? '—'}</dd>
          {extras.map(([field, value]) => (
            <>
              <dt key={`${field}-name`}>{sentenceCase(field)}</dt>
              <dd key={`${field}-value`}>
                {value === null ? '—' : typeof value === 'object' ? JSON.stringify(value) : String(value)}
              </dd>
            </>
          ))}
          <dt>Created</dt>
          <dd>{formatTimestamp(member.created_at, timeZone)}</dd>
          <dt>Updated</dt>
          <dd>{formatTimestamp(member.updated_at, timeZone)}</dd>
        </dl>
      )}
      {MEMBER_PANELS.map((Panel, i) => (
        <Panel key={i} member={member} etag={etag} reload={loaded.reload} />
      ))}
      <h2>History</h2>
      <AuditTimeline key={loaded.round} resourceType="member" resourceId={String(memberId)} />
    </section>
  );
}

/** A field the console does not know yet, as a label: `locker_number` → "Locker number". */
function sentenceCase(field: string): string {
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
