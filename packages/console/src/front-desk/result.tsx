import type { AccessDecision } from '@facility-admin/client';
import { useFacility } from '../context';
import { formatTimestamp } from '../format';
import { fullName } from '../members/status';
import { href } from '../router';
import { Badge } from '../ui';

const PERIOD_WORDS = { day: 'today', week: 'this week', month: 'this month' } as const;

/** A tick or a cross: the shape says it too, for those who do not tell the colours apart. */
function DecisionIcon({ allowed }: { allowed: boolean }) {
  return (
    <svg class="decision-icon" viewBox="0 0 48 48" aria-hidden="true" focusable="false">
      <circle cx="24" cy="24" r="22" />
      {allowed ? <path d="M13 25 l8 8 l15 -17" /> : <path d="M15 15 L33 33 M33 15 L15 33" />}
    </svg>
  );
}

/**
 * What a recorded allow leaves the member: the service counts balances before
 * the decision, and the person at the desk wants what is left after it.
 */
function leftAfter(decision: AccessDecision, left: number, spent: number): number {
  const counted = decision.decision === 'allow' && decision.check_in !== null;
  return counted ? Math.max(0, left - spent) : left;
}

function Balances({ decision }: { decision: AccessDecision }) {
  const { timeZone } = useFacility();
  const { visits, guest_passes } = decision.remaining;
  if (!visits && !guest_passes) return null;
  const after = decision.decision === 'allow' && decision.check_in !== null;
  const guests = decision.check_in?.guests ?? 0;
  return (
    <dl class="balances">
      {visits && (
        <div>
          <dt>Visits left {PERIOD_WORDS[visits.period]}</dt>
          <dd>
            <strong>{leftAfter(decision, visits.left, 1)}</strong> of {visits.limit}
            <span class="muted small">
              {`${after ? ' after this visit' : ''}, resets ${formatTimestamp(visits.resets_at, timeZone)}`}
            </span>
          </dd>
        </div>
      )}
      {guest_passes && (
        <div>
          <dt>Guest passes left this month</dt>
          <dd>
            <strong>{leftAfter(decision, guest_passes.left, guests)}</strong> of {guest_passes.limit}
            <span class="muted small">
              {after && guests > 0 ? ` after ${guests === 1 ? 'this guest' : `these ${guests} guests`}` : ''}
              {`, resets ${formatTimestamp(guest_passes.resets_at, timeZone)}`}
            </span>
          </dd>
        </div>
      )}
    </dl>
  );
}

/** The answer, large: ALLOW or DENY in colour, words and an icon; every reason; who; what is left. */
export function DecisionResult({ decision, asked }: { decision: AccessDecision; asked: string }) {
  const { facilityId, timeZone } = useFacility();
  const allowed = decision.decision === 'allow';
  const member = decision.member;
  const guests = decision.check_in?.guests ?? 0;
  return (
    <section
      class={`decision ${allowed ? 'decision-allow' : 'decision-deny'}`}
      aria-labelledby="decision-word"
    >
      <div class="decision-head">
        <DecisionIcon allowed={allowed} />
        <div>
          <p class="decision-word" id="decision-word">
            {allowed ? 'ALLOW' : 'DENY'}
          </p>
          <p class="decision-say">
            {allowed
              ? `Let them in${guests > 0 ? ` with ${guests} guest${guests === 1 ? '' : 's'}` : ''}.`
              : 'Do not let them in.'}
          </p>
        </div>
      </div>
      {member ? (
        <p class="decision-member">
          <a href={href(facilityId, 'members', member.id)}>{fullName(member)}</a>{' '}
          <Badge value={member.status} /> <span class="muted">{member.plan_name ?? 'No plan'}</span>
        </p>
      ) : (
        <p class="decision-member muted">{asked}</p>
      )}
      {decision.reasons.length > 0 && (
        <>
          <h3 class="visually-hidden">{allowed ? 'Warnings' : 'Reasons'}</h3>
          <ul class="reasons">
            {decision.reasons.map((reason) => (
              <li key={reason.code} data-code={reason.code}>
                {reason.message}
                {reason.until && <span class="until"> Until {formatTimestamp(reason.until, timeZone)}.</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      <Balances decision={decision} />
      {decision.check_in === null && <p class="muted small">A trial only: nothing was recorded.</p>}
    </section>
  );
}
