import type { Route } from '../router';
import { MemberCreateScreen } from './create';
import { MembersList } from './list';
import { MemberPage } from './page';

/** #/f/1/members, #/f/1/members/new, #/f/1/members/7 */
export function MembersScreen({ route }: { route: Route }) {
  const [first] = route.rest;
  if (first === 'new') return <MemberCreateScreen />;
  if (first && /^\d+$/.test(first)) return <MemberPage memberId={Number(first)} />;
  return <MembersList />;
}
