import { useState } from 'preact/hooks';
import { idempotencyKeys } from '../api';
import { useConsole } from '../console-context';
import { allows } from '../people';
import { Field, fieldErrors, ReadOnlyKey, ScreenTitle } from '../ui';
import { FormEnd, useWrite } from '../write';

/** #/facilities/new: a facility by name; its time zone and currency seed its policy. */
export function FacilityCreate() {
  const { who, reloadFacilities } = useConsole();
  const [name, setName] = useState('');
  const [timezone, setTimezone] = useState(Intl.DateTimeFormat().resolvedOptions().timeZone);
  const [currency, setCurrency] = useState('');
  const [keyFor] = useState(idempotencyKeys);
  const write = useWrite();
  const errors = fieldErrors(write.failure);
  if (!allows(who.session, 'facilities.write')) return <ReadOnlyKey />;
  const body = {
    name: name.trim(),
    ...(timezone.trim() ? { timezone: timezone.trim() } : {}),
    ...(currency.trim() ? { currency: currency.trim().toUpperCase() } : {}),
  };
  const send = write.submit(async () => {
    const created = await who.client.facilities.create(body, { idempotencyKey: keyFor(body) });
    reloadFacilities();
    window.location.hash = `#/facilities/${created.data.id}`;
  });
  return (
    <section>
      <p class="crumbs">
        <a href="#/facilities">Facilities</a> /
      </p>
      <ScreenTitle>Add a facility</ScreenTitle>
      <form class="form card" onSubmit={send}>
        <Field label="Name" error={errors.name}>
          {(props) => (
            <input {...props} required value={name} onInput={(e) => setName(e.currentTarget.value)} />
          )}
        </Field>
        <Field label="Time zone" hint="An IANA name, such as Europe/London." error={errors.timezone}>
          {(props) => (
            <input {...props} value={timezone} onInput={(e) => setTimezone(e.currentTarget.value)} />
          )}
        </Field>
        <Field
          label="Currency"
          hint="Three letters (ISO 4217), such as GBP; empty for the default."
          error={errors.currency}
        >
          {(props) => (
            <input
              {...props}
              maxLength={3}
              value={currency}
              onInput={(e) => setCurrency(e.currentTarget.value)}
            />
          )}
        </Field>
        <FormEnd
          write={write}
          submitLabel="Add facility"
          busyLabel="Adding…"
          onCancel={() => history.back()}
        />
      </form>
    </section>
  );
}
