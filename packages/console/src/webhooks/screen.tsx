import type { Route } from '../router';
import { WebhookCreateScreen } from './create';
import { WebhooksList } from './list';
import { WebhookPage } from './page';

/** #/f/1/webhooks, #/f/1/webhooks/new, #/f/1/webhooks/3 */
export function WebhooksScreen({ route }: { route: Route }) {
  const [first] = route.rest;
  if (first === 'new') return <WebhookCreateScreen />;
  if (first && /^\d+$/.test(first)) return <WebhookPage endpointId={Number(first)} />;
  return <WebhooksList />;
}
