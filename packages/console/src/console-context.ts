import type { Facility } from '@facility-admin/client';
import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { SignedIn as Who } from './api';

/** What every screen of a signed-in console shares: who, the facilities by name, and signing out. */
export interface ConsoleContext {
  who: Who;
  /** The facilities the caller may reach (archived ones too), by id. */
  facilities: Facility[];
  reloadFacilities: () => void;
  signOut: () => void;
}

export const Console = createContext<ConsoleContext | null>(null);

export function useConsole(): ConsoleContext {
  const context = useContext(Console);
  if (!context) throw new Error('useConsole outside the signed-in console');
  return context;
}
