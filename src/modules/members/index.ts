import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import './member.events.js';
import './member.problems.js';
import { memberRoutes } from './member.routes.js';
import {
  Member,
  MemberCreate,
  MemberPage,
  MemberRole,
  MemberStatus,
  MemberUpdate,
} from './member.schemas.js';
import { applyMemberSchedule } from './member-schedule.job.js';

/** A facility's members and their lifecycle by date. */
export const membersModule: ServiceModule = {
  name: 'members',
  routes: [memberRoutes],
  schemas: [Member, MemberCreate, MemberUpdate, MemberPage, MemberStatus, MemberRole],
  jobs: () => [applyMemberSchedule],
  resourceTypes: ['member'],
};
