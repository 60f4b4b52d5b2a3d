import type { Policy } from '../../policy/policy.schemas.js';

/** What the door's clock says at an instant, from the policy's opening hours and closures. */
export type Opening =
  | { open: true }
  /** `until`: the next instant it opens; null when it never opens again (no opening hours at all). */
  | { open: false; why: 'closed' | 'closure'; until: Date | null };

/**
 * Whether the facility is open at `at`, in its time zone (`policy.timezone`):
 * `opening_hours` null is open at all hours; intervals whose `closes` is at
 * or before `opens` run past midnight into the next day; a closure closes
 * whole local days. Correct across DST changes.
 *
 * STUB (issue 40 foundation): the door-policy helper implements it.
 */
export function openingAt(
  policy: Pick<Policy, 'timezone' | 'opening_hours' | 'closures'>,
  at: Date,
): Opening {
  if (policy.opening_hours === null && policy.closures.length === 0) return { open: true };
  throw new Error('openingAt: not implemented yet');
}
