import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { FastifySwaggerUiOptions } from '@fastify/swagger-ui';
import type { Config } from '../../config.js';
import { rolesWith } from '../../core/roles.js';
import { packageName, packageVersion } from '../../package-info.js';
import { permissionOfOperation } from './permissions.js';

const TITLE = `${packageName} API`;

/** The service's own mark for the browser tab, instead of Swagger's. */
const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="6" fill="#1f5f8b"/><text x="16" y="22" font-family="sans-serif" font-size="16" font-weight="bold" fill="#fff" text-anchor="middle">fa</text></svg>`;

/**
 * The documentation page at /docs: Swagger UI under the product's name. The
 * base layout has no top bar, so Swagger's logo does not appear; the mark
 * replaces the plugin's default logo (Fastify's), which would otherwise
 * still be sent in the page's script.
 */
export const docsPageOptions: FastifySwaggerUiOptions = {
  routePrefix: '/docs',
  uiConfig: { layout: 'BaseLayout' },
  logo: { type: 'image/svg+xml', content: Buffer.from(FAVICON) },
  theme: {
    title: TITLE,
    favicon: [
      { filename: 'favicon.svg', rel: 'icon', type: 'image/svg+xml', sizes: 'any', content: FAVICON },
    ],
  },
  staticCSP: true,
  // Served over plain HTTP on a laptop too: upgrading its own assets to HTTPS would break the page.
  transformStaticCSP: (header) => header.replace(/upgrade-insecure-requests;?/, ''),
};

export function openApiOptions(_config: Config): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: TITLE,
        version: packageVersion,
        description:
          'Manage membership plans, plan templates, entitlements, members and the policy of each facility. ' +
          'Errors are RFC 9457 problem details (application/problem+json) with a machine-readable `code`.',
        license: { name: 'MIT', identifier: 'MIT' },
        contact: { name: 'The operators of this deployment' },
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
        { name: 'facilities', description: 'Facilities by name (every positive id is a facility)' },
        { name: 'plans', description: 'Membership plans of a facility' },
        { name: 'templates', description: 'Read-only plan templates' },
        { name: 'entitlements', description: 'Entitlements of a plan' },
        { name: 'members', description: 'Members of a facility' },
        { name: 'freezes', description: "Dated freezes of a member's membership" },
        { name: 'policy', description: 'The policy of a facility' },
        {
          name: 'access',
          description: 'At the door: access decisions, the check-ins they record, check-outs and occupancy',
        },
        { name: 'session', description: 'The caller, signing in and out' },
        { name: 'staff', description: 'People who work at the facilities (owners manage them)' },
        { name: 'api-keys', description: 'Keys for integrations (owners manage them)' },
        { name: 'audit', description: 'The audit trail of a facility (read-only)' },
        { name: 'events', description: 'The change feed of a facility: one event per committed change' },
        {
          name: 'webhooks',
          description: 'Signed delivery of the change feed to endpoints (admin keys only)',
        },
        { name: 'operations', description: 'Health checks, open without a key' },
      ],
    },
    // A named schema (one with an $id) is the component of that name.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) => String(json.$id ?? `def-${i}`),
    },
    transformObject: (document) =>
      withRoles(withBodyExamples((document as { openapiObject: OpenApiDocument }).openapiObject)) as object,
  };
}

interface MediaType {
  schema?: { $ref?: string };
  example?: unknown;
  examples?: unknown;
}

interface OpenApiDocument {
  components?: { schemas?: Record<string, { examples?: unknown[] }> };
  paths?: Record<
    string,
    Record<
      string,
      { requestBody?: { content?: Record<string, MediaType> } } & {
        responses?: Record<string, { content?: Record<string, MediaType> }>;
      }
    >
  >;
}

const COMPONENT = '#/components/schemas/';

/** The path parameters of the examples: the ids and key the bodies' examples use. */
const EXAMPLE_PARAMETERS: Record<string, string> = {
  facility_id: '1',
  plan_id: '7',
  member_id: '42',
  key: 'towel',
};

type ExampleMap = Record<string, { value?: unknown }>;

function isExampleMap(examples: unknown): examples is ExampleMap {
  return typeof examples === 'object' && examples !== null && !Array.isArray(examples);
}

/** Problem examples name the operation's own path as their `instance`. */
function withInstance(examples: ExampleMap, instance: string): ExampleMap {
  return Object.fromEntries(
    Object.entries(examples).map(([name, example]) => {
      const value = example.value as { instance?: unknown } | undefined;
      if (typeof value?.instance !== 'string') return [name, example];
      return [name, { ...example, value: { ...value, instance } }];
    }),
  );
}

/**
 * Each request and response body that is a named schema shows that schema's
 * first example, so that the example is written once, with the schema.
 */
function withBodyExamples(document: OpenApiDocument): OpenApiDocument {
  const schemas = document.components?.schemas ?? {};
  for (const [path, operations] of Object.entries(document.paths ?? {})) {
    const instance = path.replace(/\{(\w+)\}/g, (_, name: string) => EXAMPLE_PARAMETERS[name] ?? '1');
    for (const operation of Object.values(operations)) {
      const bodies = [operation.requestBody, ...Object.values(operation.responses ?? {})];
      for (const media of bodies.flatMap((body) => Object.values(body?.content ?? {}))) {
        if (isExampleMap(media.examples)) media.examples = withInstance(media.examples, instance);
        const name = media.schema?.$ref?.startsWith(COMPONENT)
          ? media.schema.$ref.slice(COMPONENT.length)
          : '';
        const example = schemas[name]?.examples?.[0];
        if (example !== undefined && media.example === undefined && media.examples === undefined) {
          media.example = example;
        }
      }
    }
  }
  return document;
}

/** Each operation names its permission and the roles that have it (x-permission, x-roles): the one table, machine-readable. */
function withRoles(document: OpenApiDocument): OpenApiDocument {
  for (const operations of Object.values(document.paths ?? {})) {
    for (const operation of Object.values(operations) as Record<string, unknown>[]) {
      const permission = permissionOfOperation(String(operation.operationId));
      if (permission === undefined) continue;
      operation['x-permission'] = permission;
      operation['x-roles'] = rolesWith(permission);
    }
  }
  return document;
}
