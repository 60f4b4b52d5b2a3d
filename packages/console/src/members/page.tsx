import type { Member, MemberUpdate } from '@facility-admin/client';
import type { ComponentType } from 'preact';
import { useState } from 'preact/hooks';
import { AuditTimeline } from '../audit';
import { useFacility } from '../context';
import { formatDate, formatTimestamp } from '../format';
import { href } from '../router';
import { Badge, ConfirmDialog, Loading, ProblemNotice, ScreenTitle, useLoad } from '../ui';
import { bodyOf, MemberForm } from './form';
import { FreezesPanel } from './freezes';
import { planName, usePlans } from './list';
import { allowedTransitions, fullName, moveLabel, statusReason } from './status';

/** Panels below the member's fields (its freezes): each gets the member and its ETag, and a way to reload. */
export const MEMBER_PANELS: ComponentType<{ member: Member; etag: string; reload: () => void }>[] = [
  FreezesPanel,
];

/** Fields the page shows by name; any other field the service adds is listed after them as it comes. */
const SHOWN = new Set([
  'id',
  'facility_id',
  'first_name',
  'last_name',
  'email',
  'phone',
  'date_of_birth',
  'sport_id',
  'role',
  'status',
  'status_reason',
  'plan_id',
  'external_id',
  'joined_on',
  'ends_on',
  'waiver_signed_at',
  'notes',
  'status_changed_at',
  'created_at',
  'updated_at',
  'deleted_at',
  'allowed_transitions',
]);

export function MemberPage({ memberId }: { memberId: number }) {
  const { client, facilityId, canWrite, timeZone } = useFacility();
  const loaded = useLoad(() => client.members.get(facilityId, memberId), [facilityId, memberId]);
  const plans = usePlans();
  const [editing, setEditing] = useState(false);
  const [actionError, setActionError] = useState<unknown>();
  const [confirmRemove, setConfirmRemove] = useState(false);
  const [timelineRound, setTimelineRound] = useState(0);
  const reload = () => {
    setActionError(undefined);
    setEditing(false);
    loaded.reload();
    setTimelineRound((n) => n + 1);
  };

  if (loaded.state === 'loading' && !loaded.data) return <Loading what="the member" />;
  if (loaded.state === 'error' && !loaded.data) return <ProblemNotice error={loaded.error} />;
  const { data: member, etag } = loaded.data as { data: Member; etag: string };

  const write = async (change: () => Promise<unknown>) => {
    setActionError(undefined);
    try {
      await change();
      reload();
    } catch (error) {
      setActionError(error);
    }
  };
  const move = (status: string) =>
    write(() => client.members.update(facilityId, memberId, { status } as MemberUpdate, { ifMatch: etag }));
  const extras = Object.entries(member).filter(([field]) => !SHOWN.has(field));

  return (
    <section>
      <p class="crumbs">
        <a href={href(facilityId, 'members')}>Members</a> /
      </p>
      <div class="screen-head">
        <ScreenTitle>{fullName(member)}</ScreenTitle>
        <Badge value={member.status} />
      </div>
      {actionError !== undefined && <ProblemNotice error={actionError} onReload={reload} />}
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
          {member.status !== 'removed' && (
            <button type="button" class="danger" onClick={() => setConfirmRemove(true)}>
              Remove
            </button>
          )}
        </fieldset>
      )}
      {confirmRemove && (
        <ConfirmDialog
          title={`Remove ${fullName(member)}?`}
          confirmLabel="Remove"
          danger
          onCancel={() => setConfirmRemove(false)}
          onConfirm={() => {
            setConfirmRemove(false);
            write(() => client.members.delete(facilityId, memberId, { ifMatch: etag }));
          }}
        >
          <p>The member is marked removed and left out of lists. You can restore them later.</p>
        </ConfirmDialog>
      )}
      {editing ? (
        <MemberForm
          member={member}
          plans={plans.data ?? []}
          submitLabel="Save changes"
          onCancel={() => setEditing(false)}
          onReload={reload}
          onSubmit={async (draft) => {
            await client.members.update(facilityId, memberId, bodyOf(draft, member) as MemberUpdate, {
              ifMatch: etag,
            });
            reload();
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
        <Panel key={i} member={member} etag={etag} reload={reload} />
      ))}
      <h2>History</h2>
      <AuditTimeline key={timelineRound} resourceType="member" resourceId={String(memberId)} />
    </section>
  );
}

/** A field the console does not know yet, as a label: `locker_number` → "Locker number". */
function sentenceCase(field: string): string {
  const words = field.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
