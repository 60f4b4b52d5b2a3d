import type { ServiceModule } from '../../http/vocabulary/service-module.js';
import { auditRoutes } from './audit.routes.js';
import { AuditEvent, AuditEventPage } from './audit.schemas.js';

/** The audit trail of a facility: every write, who made it and what changed. */
export const auditModule: ServiceModule = {
  name: 'audit',
  routes: [auditRoutes],
  schemas: [AuditEvent, AuditEventPage],
};
