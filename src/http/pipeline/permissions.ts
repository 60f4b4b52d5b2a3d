import type { FastifyInstance, RouteOptions } from 'fastify';
import { PERMISSION_DESCRIPTIONS, type Permission, rolesWith } from '../../core/roles.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What a caller needs to call the route (src/core/roles.ts). A GET or
     * HEAD needs `read` unless it says otherwise; every other method must say.
     */
    permission?: Permission;
    /** Open to anyone (signing in): no key or session asked, only the failed-authentication limit. */
    public?: boolean;
  }
}

const READ_METHODS = new Set(['GET', 'HEAD']);

/** The permission of each operation, by operationId: the OpenAPI document lists its roles (x-roles). */
const permissionsByOperation = new Map<string, Permission>();

export function permissionOfOperation(operationId: string): Permission | undefined {
  return permissionsByOperation.get(operationId);
}

/**
 * Every API route says what it needs: a route that changes something and
 * names no permission stops the service at start, so no write is ever open
 * to every role by omission. Each operation's description ends with who may
 * call it, from the one table.
 */
export function registerPermissions(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith('/admin') && !route.url.includes('/admin/')) return;
    const methods = [route.method].flat();
    route.config ??= {};
    const config = route.config as { permission?: Permission; public?: boolean };
    if (config.public) return;
    if (config.permission === undefined) {
      if (!methods.every((method) => READ_METHODS.has(method))) {
        throw new Error(`${methods.join(',')} ${route.url} names no permission (config.permission)`);
      }
      config.permission = 'read';
    }
    const schema = route.schema as { operationId?: string; description?: string } | undefined;
    if (schema?.operationId === undefined) return;
    permissionsByOperation.set(schema.operationId, config.permission);
    const who = whoMayCall(config.permission);
    // A schema object shared by several apps (tests build many) is told once.
    if (!schema.description?.endsWith(who))
      schema.description = `${schema.description ?? ''}\n\n${who}`.trim();
  });
}

function whoMayCall(permission: Permission): string {
  const roles = rolesWith(permission)
    .map((role) => `\`${role}\``)
    .join(', ');
  return `**Who may call it:** ${roles} (permission \`${permission}\`: ${PERMISSION_DESCRIPTIONS[permission]}).`;
}
