import type { ServiceModule } from '../../../http/service-module.js';
import './member-csv.problems.js';
import { memberCsvRoutes } from './member-csv.routes.js';
import { MemberImportReport, MembersCsv } from './member-csv.schemas.js';

/** CSV import and export of a facility's members. */
export const memberCsvModule: ServiceModule = {
  name: 'members/csv',
  routes: [{ plugin: memberCsvRoutes, options: (config) => config.memberImport }],
  schemas: [MembersCsv, MemberImportReport],
};
