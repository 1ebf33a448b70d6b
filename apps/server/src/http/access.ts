/**
 * Who may call a route (STYLE: roles at the route). Every /api route declares `config.access`;
 * `assertAccessDeclared` refuses to start a server with a route that forgot to. A route that manages the
 * account itself (logout, `updateProfile`, API keys, sessions, second factors) also declares
 * `config.sessionOnly`: an API key is refused there, so a leaked key cannot outlast or take over the account. Every
 * other member or creator route declares the API key scope it needs (`config.scope`, DESIGN §11.2), and
 * `assertAccessDeclared` refuses to start without it. Who is calling is
 * `request.auth` (set by plugins/auth.ts); `requireAuth` is how a service behind a member route reads it.
 */
import { type ApiKeyScope, AppError, MESSAGES } from '@starlight/shared';
import type { FastifyRequest, RouteOptions } from 'fastify';

/** The signed-in account as the services see it. */
export interface AuthUser {
  id: string;
  nickname: string;
  role: string;
  /** The session a token signed in with (`user_sessions`, DESIGN §11.1); absent for an API key. */
  sessionId?: string;
  /** The session passed a second factor (DESIGN §11.1); absent for an API key. */
  secondFactor?: boolean;
  /** The account has TOTP on, as read with its session or key (DESIGN §11.1 step-up); absent when not read. */
  totpOn?: boolean;
}

/** public: anyone; member: any signed-in account; admin / creator: that role (admins pass creator routes). */
export type Access = 'public' | 'member' | 'admin' | 'creator';

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /**
     * True: only a session token may call (DESIGN §8); an `x-api-key` gets 403 `SESSION_ONLY_MESSAGE`.
     * For routes that manage the account: its sign-in, its profile and password, its keys and sessions.
     */
    sessionOnly?: boolean;
    /**
     * The scope an API key needs here (DESIGN §11.2): `read` for the member's own reads, `trade` for
     * orders, `transfer` for transfers, distributions, forge, chips and items, `withdraw` for withdraw and deposit.
     */
    scope?: ApiKeyScope;
    /**
     * True: a CSV export (DESIGN §11.6) that also opens with a download link, `?token=` from
     * `POST /api/exports/link`, in place of credentials in the headers (plugins/auth.ts).
     */
    downloadLink?: boolean;
  }
  interface FastifyRequest {
    /** Set for signed-in callers; null on public routes without a valid token. */
    auth: AuthUser | null;
    /** How `auth` was proved: a session token or an API key (`x-api-key`, DESIGN §8); null with no `auth`. */
    authVia: 'session' | 'apiKey' | null;
    /** What the `x-api-key` of the request allows (DESIGN §11.2); null for a session or no credentials. */
    apiKey: { scopes: string[]; allowedIps: string[] } | null;
  }
}

/** The 403 of an API key on a `sessionOnly` route. */
export const SESSION_ONLY_MESSAGE = 'This needs a signed-in session; API keys cannot be used here';

/** Returns the signed-in user of a request or throws 401 `Not authorized`. For services behind member routes. */
export function requireAuth(request: FastifyRequest): AuthUser {
  if (!request.auth) throw new AppError('UNAUTHORIZED', MESSAGES.notAuthorized);
  return request.auth;
}

/** One declared /api route: what the route-table tests walk (test/http.access.test.ts). */
export interface DeclaredRoute {
  method: string;
  url: string;
  access: Access;
  /** True when the route validates a request body. */
  hasBody: boolean;
  /** True when the route refuses API keys (`config.sessionOnly`). */
  sessionOnly: boolean;
  /** The scope an API key needs (`config.scope`); null where keys are never accepted or not needed. */
  scope: ApiKeyScope | null;
}

/** Every /api route declared in this process, once per method and url. */
export const declaredRoutes: DeclaredRoute[] = [];

/**
 * Throws when an /api route has no `config.access`, so no route can escape the role check, and when a
 * route an API key can reach (member or creator, not `sessionOnly`) has no `config.scope`.
 */
export function assertAccessDeclared(route: RouteOptions): void {
  if (!route.url.startsWith('/api/') || route.method === 'HEAD') return;
  if (route.url.startsWith('/api/docs')) return;
  const config = route.config as { access?: Access; sessionOnly?: boolean; scope?: ApiKeyScope } | undefined;
  const access = config?.access;
  if (!access) throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.access`);
  const byKey = (access === 'member' || access === 'creator') && config?.sessionOnly !== true;
  if (byKey && !config?.scope) {
    throw new Error(`Route ${String(route.method)} ${route.url} does not declare config.scope`);
  }
  for (const method of [route.method].flat()) {
    if (declaredRoutes.some((r) => r.method === method && r.url === route.url)) continue;
    declaredRoutes.push({
      method,
      url: route.url,
      access,
      hasBody: Boolean(route.schema?.body),
      sessionOnly: config?.sessionOnly === true,
      scope: byKey ? (config?.scope ?? null) : null,
    });
  }
}
