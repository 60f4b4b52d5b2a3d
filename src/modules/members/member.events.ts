import { defineResourceEvents } from '../../journal/event-types.js';
import { memberExample } from './member.examples.js';

const at = '2026-03-09T16:42:07.905Z';
// allowed_transitions depend on the policy when read: events leave them out (docs/webhooks.md).
const { allowed_transitions: _readOnly, ...member } = memberExample;

/** A member's changes in the change feed. */
defineResourceEvents({
  resourceType: 'member',
  examples: {
    'member.created': member,
    'member.updated': { ...member, phone: '+44 20 7946 0000', updated_at: at },
    'member.status_changed': {
      ...member,
      status: 'frozen',
      status_changed_at: at,
      updated_at: at,
      previous_status: 'active',
    },
    'member.deleted': {
      ...member,
      status: 'removed',
      status_changed_at: at,
      deleted_at: at,
      updated_at: at,
      hard_deleted: false,
    },
  },
  typeOf: ({ action, before, after }) => {
    if (action === 'create') return 'member.created';
    if (action === 'delete' || action === 'hard_delete') return 'member.deleted';
    if (before?.status !== after?.status) return 'member.status_changed';
    return 'member.updated';
  },
  dataOf: (change, type) => {
    // next_change_on is the schedule's bookkeeping, never part of a member's representation.
    const { next_change_on: _schedule, ...resource } = change.after ?? change.before ?? {};
    if (type === 'member.status_changed')
      return { ...resource, previous_status: change.before?.status ?? null };
    if (type === 'member.deleted') return { ...resource, hard_deleted: change.action === 'hard_delete' };
    return resource;
  },
});
