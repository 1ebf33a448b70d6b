/**
 * One error handler (STYLE habit 3): AppError codes, validation issues and Fastify's own errors become
 * DESIGN §3's status codes with a `message`; a 5xx never leaks its detail.
 */
import { AppError, type Issue, issueList } from '@starlight/shared';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { isDatabaseUnavailable } from '../db/errors.ts';

/** What a member reads while the database is out of reach. */
export const UNAVAILABLE_MESSAGE = 'Starlight is briefly unavailable, please try again in a moment';

/**
 * The zod issues behind fastify-type-provider-zod's validation errors: its `createValidationError` moves
 * each issue's `code`, `path` and `message` to `keyword`, `instancePath` and `message` and keeps the rest
 * as `params`; this puts them back. Its types say only `object` for `params`, hence the one cast.
 */
function toIssues(
  validation: ReadonlyArray<{ keyword: string; instancePath: string; message?: string; params: object }>,
): Issue[] {
  return validation.map(
    (v) =>
      ({
        ...v.params,
        code: v.keyword,
        path: v.instancePath.split('/').filter(Boolean),
        message: v.message ?? '',
      }) as unknown as Issue,
  );
}

/** Fastify error handler: sends `{message, errors?}` with the right status. */
export function handleError(error: FastifyError | AppError | Error, request: FastifyRequest, reply: FastifyReply) {
  if (error instanceof AppError) {
    if (error.status >= 500) request.log.error({ err: error }, 'internal error');
    return reply.status(error.status).send({ message: error.message });
  }
  if (hasZodFastifySchemaValidationErrors(error)) {
    const errors = issueList(toIssues(error.validation));
    return reply.status(400).send({ message: errors[0]?.message ?? 'Invalid request', errors });
  }
  const status = (error as FastifyError).statusCode ?? 500;
  if (status === 429) return reply.status(429).send({ message: 'Too many requests, please try again later' });
  if (status >= 400 && status < 500) {
    const code = (error as FastifyError).code;
    const message =
      code === 'FST_ERR_CTP_INVALID_JSON_BODY' || code === 'FST_ERR_CTP_EMPTY_JSON_BODY'
        ? 'Body is not valid JSON'
        : error.message;
    return reply.status(status).send({ message });
  }
  if (isDatabaseUnavailable(error)) {
    // Its outcome was not acknowledged: a retry with the same Idempotency-Key runs it, or replays it if it committed.
    request.log.warn({ err: error }, 'database unavailable');
    return reply.status(503).header('retry-after', '1').send({ message: UNAVAILABLE_MESSAGE });
  }
  request.log.error({ err: error }, 'unhandled error');
  return reply.status(500).send({ message: 'Internal server error' });
}
