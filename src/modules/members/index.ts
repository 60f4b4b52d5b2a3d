import type { ServiceModule } from '../../service-module.js';
import './member.events.js';
import './member.problems.js';
import './csv/member-csv.problems.js';
import { memberCsvRoutes } from './csv/member-csv.routes.js';
import { MemberImportReport, MembersCsv } from './csv/member-csv.schemas.js';
import { memberRoutes } from './member.routes.js';
import { Member, MemberCreate, MemberList, MemberPatch, MemberRole, MemberStatus } from './member.schemas.js';
import { applyMemberSchedule } from './member-schedule.job.js';

/** A facility's members, their lifecycle by date, and their CSV import and export. */
export const membersModule: ServiceModule = {
  name: 'members',
  routes: [memberRoutes, { plugin: memberCsvRoutes, options: (config) => config.memberImport }],
  schemas: [
    Member,
    MemberCreate,
    MemberPatch,
    MemberList,
    MemberStatus,
    MemberRole,
    MembersCsv,
    MemberImportReport,
  ],
  jobs: () => [applyMemberSchedule],
  resourceTypes: ['member'],
};
