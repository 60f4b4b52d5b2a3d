import type { Client, Permission, Policy, Session } from '@facility-admin/client';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** What every screen of one facility needs: the client, who is signed in, and the facility's policy. */
export interface FacilityContext {
  client: Client;
  session: Session;
  facilityId: number;
  /** What the caller's role here allows (GET /admin/session): a control is shown only when it does. */
  can: (permission: Permission) => boolean;
  /** The facility's policy: its timezone for dates, its currency for money. */
  policy: Policy | null;
  timeZone: string;
  currency: string;
  reloadPolicy: () => void;
}

export const Facility = createContext<FacilityContext | null>(null);

export function useFacility(): FacilityContext {
  const context = useContext(Facility);
  if (!context) throw new Error('useFacility outside a facility');
  return context;
}
