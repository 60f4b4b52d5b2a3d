import type { ServiceModule } from '../../../http/vocabulary/service-module.js';
import './member-csv.problems.js';
import { MemberImportReport, MembersCsv } from './member-csv.schemas.js';
import { memberExportRoutes } from './member-export.routes.js';
import { memberImportRoutes } from './member-import.routes.js';
import { MemberImport, MemberImportPage } from './member-import.schemas.js';
import { pruneMemberImports } from './member-imports.job.js';

/** CSV import (as jobs) and export of a facility's members. */
export const memberCsvModule: ServiceModule = {
  name: 'members/csv',
  routes: [
    { plugin: memberImportRoutes, options: (config) => config.memberImport },
    { plugin: memberExportRoutes, options: (config) => config.memberExport },
  ],
  schemas: [MembersCsv, MemberImportReport, MemberImport, MemberImportPage],
  jobs: (config) => [pruneMemberImports(config.memberImport.retentionDays)],
};
