import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { Config } from '../config.js';

export function openApiOptions(_config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Facility administration service',
        version: '1.0.0',
        description:
          'Manage membership plans, plan templates, entitlements, members and the policy of each facility. ' +
          'Errors are RFC 9457 problem details (application/problem+json) with a machine-readable `code`.',
        license: { name: 'UNLICENSED', identifier: 'UNLICENSED' },
      },
      components: {
        securitySchemes: {
          bearerAuth: {
            type: 'http',
            scheme: 'bearer',
            description: 'An API key: created on first start or with "facility-admin keys create"',
          },
        },
      },
      security: [{ bearerAuth: [] }],
      servers: [{ url: '/', description: 'This service (paths include BASE_PATH when one is set)' }],
      tags: [
        { name: 'plans', description: 'Membership plans of a facility' },
        { name: 'templates', description: 'Read-only plan templates' },
        { name: 'entitlements', description: 'Entitlements of a plan' },
        { name: 'members', description: 'Members of a facility' },
        { name: 'policy', description: 'The policy of a facility' },
        { name: 'audit', description: 'The audit trail of a facility (read-only)' },
        { name: 'operations', description: 'Health checks, open without a key' },
      ],
    },
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
  };
}
