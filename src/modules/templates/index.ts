import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import { templateRoutes } from './template.routes.js';
import { PlanTemplate, PlanTemplatePage } from './template.schemas.js';

/** The read-only catalog of plan templates. */
export const templatesModule: ServiceModule = {
  name: 'templates',
  routes: [templateRoutes],
  schemas: [PlanTemplate, PlanTemplatePage],
};
