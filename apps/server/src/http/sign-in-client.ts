/** Who is making a request that signs in or changes an account's security: its address and device. */
import type { FastifyRequest } from 'fastify';

/** The client's address and its User-Agent header (empty when it sent none). */
export interface SignInClient {
  address: string;
  userAgent: string;
}

/** The `SignInClient` of a request. */
export function signInClient(req: FastifyRequest): SignInClient {
  const userAgent = req.headers['user-agent'];
  return { address: req.ip, userAgent: typeof userAgent === 'string' ? userAgent : '' };
}
