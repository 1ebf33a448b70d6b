/**
 * Who may call a route (STYLE: roles at the route). Every /api route declares `config.access`;
 * `assertAccessDeclared` refuses to start a server with a route that forgot to.
 */
import type { RouteOptions } from 'fastify';

/** public: anyone; member: any signed-in account; admin / creator: that role (admins pass creator routes). */
export type Access = 'public' | 'member' | 'admin' | 'creator';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
  }
}

/** One declared /api route: what the route-table tests walk (test/http.access.test.ts). */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
  /** True when the route validates a request body. */
  hasBody: boolean;
}

/** Every /api route declared in this process, once per method and url. */
export const declaredRoutes: DeclaredRoute[] = [];

/** Throws when an /api route has no `config.access`, so no route can escape the role check. */
export function assertAccessDeclared(route: RouteOptions): void {
  if (!route.url.startsWith('/api/') || route.method === 'HEAD') return;
  if (route.url.startsWith('/api/docs')) return;
  const access = (route.config as { access?: Access } | undefined)?.access;
  if (!access) throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
  for (const method of [route.method].flat()) {
    if (declaredRoutes.some((r) => r.method === method && r.url === route.url)) continue;
    declaredRoutes.push({ method, url: route.url, access, hasBody: Boolean(route.schema?.body) });
  }
}
