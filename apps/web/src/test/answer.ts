/**
 * Mocked API answers that cannot drift from the server's. Each handler names its route's response schema
 * (the Zod schema the server serialises with, from @starlight/shared, the `response: {200: ...}` of the
 * route) and its answer is parsed with it, as the server's serialiser does: unknown keys are dropped, and
 * an answer the schema refuses fails the test with the route and the Zod issues. A refusal (`refuse`) is
 * held to the shared error shape (`errorResponse`, every route's `4xx`). A lost answer (`lose`) is a network
 * error: no body, so nothing to check.
 */
import { errorResponse } from '@starlight/shared';
import { HttpResponse, type HttpResponseResolver, http, type JsonBodyType } from 'msw';
import { z } from 'zod';

type ErrorBody = z.input<typeof errorResponse>;

/** A refusal to answer with: HTTP `status` (4xx) and the shared error body. Made by `refuse`. */
export class Refusal {
  readonly status: number;
  readonly body: ErrorBody;
  constructor(status: number, body: ErrorBody) {
    this.status = status;
    this.body = body;
  }
}

/** The server's refusal: `status` with `{message, errors?}` (DESIGN §3). */
export function refuse(status: number, message: string, errors?: ErrorBody['errors']): Refusal {
  return new Refusal(status, errors ? { message, errors } : { message });
}

/** An answer that never arrives: the client sees a network error (the server may have acted). Made by `lose`. */
export class Lost {}

/** The answer lost on its way back (DESIGN §3): the request's fetch fails with a network error. */
export function lose(): Lost {
  return new Lost();
}

/** Answers that failed their schema since the last `takeDrifts` (setup.ts fails the test that left any). */
const drifts: Error[] = [];

/** Takes and forgets the drifted answers so far. */
export function takeDrifts(): Error[] {
  return drifts.splice(0);
}

/**
 * Parses `body` with `schema` as the server would before sending it; returns what goes on the wire.
 * Throws an Error naming `route` and each Zod issue (path and message) when the shape is wrong.
 */
export function conform<S extends z.ZodType>(route: string, schema: S, body: unknown): z.output<S> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  throw new Error(`Mocked answer of ${route} drifts from its response schema:\n${z.prettifyError(parsed.error)}`);
}

/** What a handler of a route whose response schema is `S` may answer: a body of that shape, a refusal, or none. */
export type AnswerOf<S extends z.ZodType> = z.input<S> | Refusal | Lost;

type Info = Parameters<HttpResponseResolver>[0];
type Resolve<S extends z.ZodType> = (info: Info) => AnswerOf<S> | Promise<AnswerOf<S>>;

function handler(method: 'GET' | 'POST') {
  return <S extends z.ZodType>(path: string, schema: S, resolve: Resolve<S>) => {
    const route = `${method} /api${path}`;
    const on = method === 'GET' ? http.get : http.post;
    return on(`*/api${path}`, async (info) => {
      try {
        const out = await resolve(info);
        if (out instanceof Lost) return HttpResponse.error();
        if (out instanceof Refusal) {
          if (out.status < 400 || out.status > 499) throw new Error(`${route}: a refusal is a 4xx, not ${out.status}`);
          return HttpResponse.json(conform(`${route} (${out.status})`, errorResponse, out.body), {
            status: out.status,
          });
        }
        return HttpResponse.json(conform(route, schema, out) as JsonBodyType);
      } catch (err) {
        const drift = err instanceof Error ? err : new Error(String(err));
        drifts.push(drift);
        return HttpResponse.json({ message: drift.message }, { status: 500 });
      }
    });
  };
}

/**
 * MSW handlers for `server.use(...)`: `answers.get('/bank/currencies', currenciesResponse, () => body)`
 * answers GET /api/bank/currencies with `body` checked by `currenciesResponse`; the resolver gets MSW's
 * `{request, params}` and may return `refuse(409, 'Insufficient funds')` instead, or `lose()`.
 */
export const answers = { get: handler('GET'), post: handler('POST') };
