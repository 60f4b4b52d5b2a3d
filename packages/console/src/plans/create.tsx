import type { PlanCreate } from '@facility-admin/client';
import { useState } from 'preact/hooks';
import { idempotencyKeys } from '../api';
import { useFacility } from '../context';
import { ListState, readAll, useLoad } from '../resource';
import { href, navigate } from '../router';
import { Crumbs, Loading, ReadOnlyKey, ScreenTitle } from '../ui';
import { PlanForm } from './form';
import { priceText } from './list';

function useTemplates() {
  const { client } = useFacility();
  return useLoad(
    () => readAll(client.paginate((cursor) => client.templates.list({ limit: 200, cursor }))),
    [],
  );
}

function entitlementText(value: unknown): string {
  return typeof value === 'boolean' ? (value ? 'yes' : 'no') : String(value);
}

/** The template gallery: each template with its price and entitlements, and a button to start from it. */
function TemplateGallery() {
  const { facilityId } = useFacility();
  const templates = useTemplates();
  const count = templates.data?.length;
  if (!templates.data?.length) {
    return (
      <ListState load={templates} what="templates" count={count} empty="The catalog holds no templates." />
    );
  }
  return (
    <ul class="gallery">
      {templates.data.map((t) => (
        <li key={t.id} class="card template">
          <h2>{t.name}</h2>
          <p class="price">
            {priceText(t)}
            {t.sport_id !== null && <span class="muted"> · sport {t.sport_id}</span>}
          </p>
          {t.description && <p class="muted">{t.description}</p>}
          {t.entitlements.length > 0 && (
            <ul class="entitlement-chips" aria-label={`Entitlements of ${t.name}`}>
              {t.entitlements.map((e) => (
                <li key={e.key}>
                  {e.key}: {entitlementText(e.value)}
                </li>
              ))}
            </ul>
          )}
          <a class="button" href={`${href(facilityId, 'plans', 'new')}?template=${t.id}`}>
            Use this template<span class="visually-hidden">: {t.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}

/** A new plan, from scratch or from a template (its fields prefilled, its entitlements copied by the service). */
export function PlanCreateScreen({ templateId, gallery }: { templateId?: number; gallery?: boolean }) {
  const { client, facilityId, can, currency } = useFacility();
  const canWrite = can('plans.write');
  const templates = useTemplates();
  const [keyFor] = useState(idempotencyKeys);
  if (!canWrite) return <ReadOnlyKey />;
  if (gallery) {
    return (
      <section>
        <Crumbs list="plans" label="Plans" />
        <ScreenTitle>Start from a template</ScreenTitle>
        <TemplateGallery />
      </section>
    );
  }
  const template = templateId ? templates.data?.find((t) => t.id === templateId) : undefined;
  if (templateId && templates.state === 'loading') return <Loading what="the template" />;
  return (
    <section>
      <Crumbs list="plans" label="Plans" />
      <ScreenTitle>{template ? `New plan from “${template.name}”` : 'New plan'}</ScreenTitle>
      {template && (
        <p class="muted">
          The template's entitlements are copied to the plan; edit them after you create it.
        </p>
      )}
      <PlanForm
        template={template}
        defaultCurrency={currency}
        submitLabel="Create plan"
        onCancel={() => navigate(href(facilityId, 'plans'))}
        onSubmit={async (fields) => {
          const body = { ...fields, ...(template ? { template_id: template.id } : {}) } as PlanCreate;
          const created = await client.plans.create(facilityId, body, { idempotencyKey: keyFor(body) });
          navigate(href(facilityId, 'plans', created.data.id));
        }}
      />
    </section>
  );
}
