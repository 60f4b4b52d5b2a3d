import type { FastifyPluginAsync } from 'fastify';
import type { TSchema } from 'typebox';
import type { Config } from '../../config.js';
import type { PeriodicJob } from '../../jobs/job-runner.js';

/** Routes of a module: a Fastify plugin, with the options it takes from the config. */
export type ModuleRoutes =
  // biome-ignore lint/suspicious/noExplicitAny: each plugin takes its own options
  FastifyPluginAsync<any> | { plugin: FastifyPluginAsync<any>; options(config: Config): object };

/**
 * A module of the service: one folder under src/modules/, whose index.ts
 * exports this, listed once in src/modules.ts. Its error codes and event
 * types are defined by its own `*.problems.ts` and `*.events.ts`, which its
 * code imports before it throws or journals one.
 */
export interface ServiceModule {
  name: string;
  /** Registered under the authenticated API scope. */
  routes: readonly ModuleRoutes[];
  /**
   * Its named schemas (`$id`), registered once: routes and other schemas
   * refer to them by `$id`, and each is a component of the OpenAPI document.
   * A function when they list what every module defines (event types).
   */
  schemas: readonly TSchema[] | (() => readonly TSchema[]);
  /** Its periodic jobs, run once across processes (src/jobs/), with the settings they need. */
  jobs?(config: Config): readonly PeriodicJob[];
  /** The resource types its writes journal (the audit trail's `resource_type`). */
  resourceTypes?: readonly string[];
}
