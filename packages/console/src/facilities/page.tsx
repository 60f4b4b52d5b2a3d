import type { FacilityUpdate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { useConfirm } from '../confirm';
import { useConsole } from '../console-context';
import { allows } from '../people';
import { NotLoaded, useResource } from '../resource';
import { href } from '../router';
import { Badge, Field, fieldErrors, ScreenTitle } from '../ui';
import { FormEnd, useWrite, WriteOutcome } from '../write';

const FIELDS = [
  { field: 'name', label: 'Name' },
  { field: 'address', label: 'Address' },
  { field: 'contact_email', label: 'Contact e-mail' },
  { field: 'phone', label: 'Phone' },
] as const;
type Draft = Record<(typeof FIELDS)[number]['field'], string>;

/** #/facilities/3: a facility's name and contact details; owners edit, archive and restore it. */
export function FacilityPage({ facilityId }: { facilityId: number }) {
  const { who, reloadFacilities } = useConsole();
  const { client } = who;
  const [draft, setDraft] = useState<Draft | null>(null);
  const facility = useResource(() => client.facilities.get(facilityId), [facilityId], {
    onReload: () => setDraft(null),
  });
  const edit = useWrite();
  const archiving = useConfirm<'archive'>();
  if (facility.data === undefined) return <NotLoaded load={facility} what="the facility" />;
  const { data: current, etag } = facility.data;
  const canWrite = allows(who.session, 'facilities.write', facilityId);
  const title = current.name ?? `Facility ${current.id}`;
  const setStatus = (status: 'active' | 'archived') =>
    facility.write(() => client.facilities.update(facilityId, { status }, { ifMatch: etag }), {
      after: () => {
        facility.reload();
        reloadFacilities();
      },
      notice: status === 'archived' ? `${title} is archived.` : `${title} is active again.`,
    });
  const errors = fieldErrors(edit.failure);
  const save = edit.submit(async () => {
    if (!draft) return;
    const body: FacilityUpdate = {};
    for (const { field } of FIELDS) {
      const value = draft[field].trim();
      if (value !== (current[field] ?? ''))
        Object.assign(body, { [field]: value === '' && field !== 'name' ? null : value });
    }
    await client.facilities.update(facilityId, body, { ifMatch: etag });
    facility.saved('Facility saved.');
    reloadFacilities();
  });
  return (
    <section>
      <p class="crumbs">
        <a href="#/facilities">Facilities</a> /
      </p>
      <div class="screen-head">
        <ScreenTitle>{title}</ScreenTitle>
        <Badge value={current.status} />
      </div>
      <WriteOutcome write={facility} onReload={facility.reload} />
      {draft === null ? (
        <>
          <dl class="details">
            <dt>Id</dt>
            <dd>{current.id}</dd>
            {FIELDS.slice(1).map(({ field, label }) => [
              <dt key={`${field}-t`}>{label}</dt>,
              <dd key={field}>{current[field] ?? '—'}</dd>,
            ])}
          </dl>
          <fieldset class="actions wrap">
            <legend class="visually-hidden">Facility actions</legend>
            {current.status === 'active' && (
              <a class="button" href={href(facilityId, 'members')}>
                Open {title}
              </a>
            )}
            {canWrite && (
              <button
                type="button"
                onClick={() =>
                  setDraft(
                    Object.fromEntries(FIELDS.map(({ field }) => [field, current[field] ?? ''])) as Draft,
                  )
                }
              >
                Edit
              </button>
            )}
            {canWrite && current.status === 'active' && (
              <button type="button" class="danger" onClick={() => archiving.ask('archive')}>
                Archive
              </button>
            )}
            {canWrite && current.status === 'archived' && (
              <button type="button" onClick={() => setStatus('active')}>
                Restore
              </button>
            )}
          </fieldset>
        </>
      ) : (
        <form class="form card" onSubmit={save}>
          {FIELDS.map(({ field, label }) => (
            <Field key={field} label={label} error={errors[field]}>
              {(props) => (
                <input
                  {...props}
                  required={field === 'name'}
                  value={draft[field]}
                  onInput={(e) => setDraft({ ...draft, [field]: e.currentTarget.value })}
                />
              )}
            </Field>
          ))}
          <FormEnd
            write={edit}
            submitLabel="Save facility"
            onCancel={() => setDraft(null)}
            onReload={facility.reload}
          />
        </form>
      )}
      {archiving.dialog(() => ({
        title: `Archive ${title}?`,
        confirmLabel: 'Archive',
        danger: true,
        body: (
          <p>
            It keeps all its data and stays reachable by its id, but leaves the lists. You can restore it.
          </p>
        ),
        onConfirm: () => setStatus('archived'),
      }))}
    </section>
  );
}
