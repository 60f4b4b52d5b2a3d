import type { AccessDecision, AccessDecisionRequest } from '@facility-admin/client';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useFacility } from '../context';
import { fullName } from '../members/status';
import { ProblemNotice, ReadOnlyKey } from '../ui';
import { DecisionResult } from './result';
import { MemberSearch } from './search';
import { OccupancyPanel, TodayCheckIns } from './today';

/** At most this many guests come in with one member (the service's limit). */
const MAX_GUESTS = 20;

interface Shown {
  decision?: AccessDecision;
  error?: unknown;
  /** What was asked, in words ("Card ····1234", "Ann Smith"). */
  asked: string;
}

/**
 * The front desk: a scanner (a card or QR reader that types like a keyboard
 * and ends with Enter) into one field that keeps the focus, a search by name
 * when the card is at home, the answer in large, today's check-ins and who is
 * in now. Each scan asks the service for a decision, which it records.
 */
export function FrontDeskScreen() {
  const { client, facilityId, can } = useFacility();
  const scan = useRef<HTMLInputElement>(null);
  const [guests, setGuests] = useState(0);
  const [shown, setShown] = useState<Shown | null>(null);
  const [asking, setAsking] = useState(false);
  const [round, setRound] = useState(0);
  const [names, setNames] = useState(new Map<number, string>());
  // Scans may come faster than answers: only the latest one's answer is shown.
  const latest = useRef(0);
  const refocus = () => scan.current?.focus();
  useEffect(refocus, []);

  const ask = async (body: AccessDecisionRequest, asked: string) => {
    const mine = ++latest.current;
    setAsking(true);
    setGuests(0);
    refocus();
    try {
      const decision = await client.accessDecisions.decide(facilityId, body);
      const member = decision.member;
      if (member) setNames((current) => new Map(current).set(member.id, fullName(member)));
      if (mine === latest.current) setShown({ decision, asked });
    } catch (error) {
      if (mine === latest.current) setShown({ error, asked });
    } finally {
      if (mine === latest.current) setAsking(false);
      setRound((n) => n + 1);
      refocus();
    }
  };

  if (!can('access')) return <ReadOnlyKey />;
  const withGuests = guests > 0 ? { guests } : {};
  return (
    <section class="front-desk" aria-labelledby="front-desk-title">
      <h1 id="front-desk-title">Front desk</h1>
      <div class="front-desk-grid">
        <div class="front-desk-main">
          <form
            class="scan-form"
            onSubmit={(event) => {
              event.preventDefault();
              const input = scan.current;
              const value = input?.value.trim() ?? '';
              if (input) input.value = '';
              if (value) ask({ credential: value, ...withGuests }, `Card ····${value.slice(-4)}`);
              else refocus();
            }}
          >
            <label for="scan">Scan a card or QR code</label>
            <div class="scan-row">
              <input
                id="scan"
                ref={scan}
                class="scan-input"
                autoComplete="off"
                autoCapitalize="off"
                spellcheck={false}
                maxLength={128}
                aria-describedby="scan-hint"
              />
              <button type="submit" class="primary">
                Check in
              </button>
            </div>
            <p class="hint" id="scan-hint">
              The scanner types the card's value and presses Enter. You can also type it.
            </p>
            <fieldset class="guests">
              <legend>Guests</legend>
              <button
                type="button"
                aria-label="One guest fewer"
                disabled={guests === 0}
                onClick={() => {
                  setGuests((n) => Math.max(0, n - 1));
                  refocus();
                }}
              >
                −
              </button>
              <output aria-live="polite">{guests}</output>
              <button
                type="button"
                aria-label="One guest more"
                disabled={guests >= MAX_GUESTS}
                onClick={() => {
                  setGuests((n) => Math.min(MAX_GUESTS, n + 1));
                  refocus();
                }}
              >
                +
              </button>
            </fieldset>
          </form>
          <div class="decision-slot" aria-live="polite" aria-busy={asking}>
            {asking && !shown && <p class="state">Asking…</p>}
            {shown?.decision && <DecisionResult decision={shown.decision} asked={shown.asked} />}
            {shown?.error !== undefined && <ProblemNotice error={shown.error} />}
          </div>
          {can('read') && (
            <MemberSearch
              onPick={(member) => ask({ member_id: member.id, ...withGuests }, fullName(member))}
            />
          )}
        </div>
        {can('read') && (
          <div class="front-desk-side">
            <OccupancyPanel round={round} />
            <TodayCheckIns
              round={round}
              known={names}
              onChange={() => {
                setRound((n) => n + 1);
                refocus();
              }}
            />
          </div>
        )}
      </div>
    </section>
  );
}
