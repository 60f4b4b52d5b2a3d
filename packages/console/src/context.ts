import type { Client, Policy, Session } from '@facility-admin/client';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';

/** What every screen of one facility needs: the client, who is signed in, and the facility's policy. */
export interface FacilityContext {
  client: Client;
  session: Session;
  facilityId: number;
  /** Writes are offered to admin keys only; a viewer sees everything and no write control. */
  canWrite: boolean;
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
