import { invalidField } from '../../core/errors.js';
import type { WriteContext } from '../../core/write-context.js';
import type { Db, Executor } from '../../db/database.js';
import { write } from '../../journal/write-path.js';
import { recordCheckIn } from '../check-ins/check-in.service.js';
import { findPresentedCredential } from '../members/credentials/credential-lookup.service.js';
import { findMemberAsStored, type MemberRecord, noteCheckIn } from '../members/member-door.service.js';
import { memberNotFound } from '../members/member-read.service.js';
import { lockSettledMember } from '../members/member-schedule.service.js';
import type { PolicySettings } from '../policy/policy.schemas.js';
import { getOrCreatePolicy, readPolicySettings } from '../policy/policy.service.js';
import { readMemberFacts, tightestVisits } from './access-decision.facts.js';
import { credentialRevoked, credentialUnknown, judgeMember } from './access-decision.rules.js';
import type { AccessDecision, AccessDecisionRequest, AccessReason } from './access-decision.schemas.js';
import '../members/member.problems.js';

/** Stores the answer to the request's Idempotency-Key in the decision's own transaction. */
export type StoreAnswer = (trx: Executor, answer: AccessDecision) => Promise<void>;

/** The body's rules that its schema cannot say: one way to name the person; `at` for dry runs only. */
function assertRequest(body: AccessDecisionRequest): void {
  if ((body.credential === undefined) === (body.member_id === undefined)) {
    throw invalidField(
      'body',
      body.credential === undefined ? '/member_id' : '/credential',
      'give exactly one of credential and member_id',
    );
  }
  if (body.at !== undefined && body.dry_run !== true) {
    throw invalidField('body', '/at', 'is allowed only with dry_run true');
  }
}

/**
 * Decides whether to let a person in (docs/access.md). A dry run reads and
 * records nothing. Otherwise one transaction locks the member (visit limits,
 * anti-passback) and, when the policy limits occupancy, the policy row, so
 * concurrent decisions on any instance are decided one after another; it
 * stores the check-in, the member's `last_check_in_at` when allowed, and the
 * event.
 */
export async function decideAccess(
  db: Db,
  context: WriteContext,
  facilityId: number,
  body: AccessDecisionRequest,
  storeAnswer?: StoreAnswer,
): Promise<AccessDecision> {
  assertRequest(body);
  if (body.dry_run) {
    const now = body.at === undefined ? context.now : new Date(body.at);
    const policy = await readPolicySettings(db, facilityId);
    const decided = await decideIn(db, facilityId, body, policy, now, (trx, id) =>
      findMemberAsStored(trx, facilityId, id),
    );
    return { ...decided.answer, check_in: null, dry_run: true };
  }
  return write(db, context, async ({ trx, now }) => {
    const policy = await readPolicySettings(trx, facilityId);
    const decided = await decideIn(trx, facilityId, body, policy, now, async (locked, id) => {
      const member = await lockSettledMember(locked, facilityId, id, policy.timezone, now);
      // Capacity: every allowed check-in of the facility waits here for the one before it.
      if (member && policy.max_occupancy !== null)
        await getOrCreatePolicy(locked, facilityId, now, { lock: true });
      return member;
    });
    const checkIn = await recordCheckIn(trx, context, {
      facility_id: facilityId,
      member_id: decided.memberId,
      credential_id: decided.credential?.id ?? null,
      credential_last4: decided.credential?.value_last4 ?? null,
      area: body.area ?? null,
      guests: body.guests ?? 0,
      decision: decided.answer.decision,
      reasons: decided.answer.reasons.map((r) => r.code),
      actor: context.principal.actor,
      checked_in_at: now.toISOString(),
      checked_out_at: null,
    });
    if (checkIn.decision === 'allow' && checkIn.member_id !== null)
      await noteCheckIn(trx, checkIn.member_id, checkIn.checked_in_at);
    const answer: AccessDecision = { ...decided.answer, check_in: checkIn, dry_run: false };
    await storeAnswer?.(trx, answer);
    return answer;
  });
}

interface Decided {
  answer: Omit<AccessDecision, 'check_in' | 'dry_run'>;
  memberId: number | null;
  credential: { id: number; value_last4: string } | null;
}

async function decideIn(
  db: Executor,
  facilityId: number,
  body: AccessDecisionRequest,
  policy: PolicySettings,
  now: Date,
  readMember: (db: Executor, memberId: number) => Promise<MemberRecord | undefined>,
): Promise<Decided> {
  const refused = (
    reason: AccessReason,
    memberId: number | null,
    credential: Decided['credential'],
  ): Decided => ({
    answer: {
      decision: 'deny',
      reasons: [reason],
      member: null,
      entitlements: null,
      remaining: { visits: null, guest_passes: null },
      decided_at: now.toISOString(),
    },
    memberId,
    credential,
  });
  let memberId = body.member_id;
  let credential: Decided['credential'] = null;
  if (body.credential !== undefined) {
    const found = await findPresentedCredential(db, facilityId, body.credential);
    if (!found) return refused(credentialUnknown(), null, null);
    credential = { id: found.id, value_last4: found.value_last4 };
    if (found.revoked_at !== null) return refused(credentialRevoked(), found.member_id, credential);
    memberId = found.member_id;
  }
  const member = await readMember(db, memberId as number);
  if (!member) {
    // A credential whose member was hard-deleted is as good as unknown; a member id the desk typed is 404.
    if (credential) return refused(credentialUnknown(), null, credential);
    throw memberNotFound(facilityId, memberId as number);
  }
  const facts = await readMemberFacts(db, policy, member, { area: body.area, guests: body.guests ?? 0 }, now);
  const judged = judgeMember(facts);
  return {
    answer: {
      decision: judged.denies ? 'deny' : 'allow',
      reasons: judged.reasons,
      member: {
        id: member.id,
        first_name: member.first_name,
        last_name: member.last_name,
        status: member.status,
        plan_id: member.plan_id,
        plan_name: facts.plan?.name ?? null,
      },
      entitlements: facts.entitlements,
      remaining: { visits: tightestVisits(facts.visits), guest_passes: facts.guestPasses },
      decided_at: now.toISOString(),
    },
    memberId: member.id,
    credential,
  };
}
