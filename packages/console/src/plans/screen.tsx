import type { Route } from '../router';
import { PlanCreateScreen } from './create';
import { PlansList } from './list';
import { PlanPage } from './page';

/** #/f/1/plans, #/f/1/plans/new (?template=3), #/f/1/plans/templates, #/f/1/plans/5 */
export function PlansScreen({ route }: { route: Route }) {
  const [first] = route.rest;
  if (first === 'new')
    return <PlanCreateScreen templateId={Number(route.query.get('template')) || undefined} />;
  if (first === 'templates') return <PlanCreateScreen gallery />;
  if (first && /^\d+$/.test(first)) return <PlanPage planId={Number(first)} />;
  return <PlansList />;
}
