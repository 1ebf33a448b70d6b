/**
 * The JSON body parser of every route. On top of JSON.parse it refuses, with 400 and
 * SPEC §5's message form, what would otherwise be silently changed or reach the database as a 500:
 * - a JSON number a double cannot hold exactly (more than 15 significant digits, e.g. 9007199254740993,
 *   which JSON.parse rounds): send it as a decimal string;
 * - a NUL character in any string (PostgreSQL refuses it in text);
 * - `__proto__` and `constructor` keys (prototype poisoning).
 */
import { AppError } from '@starlight/shared';
import type { FastifyRequest } from 'fastify';

/** Significant digits a double always round-trips exactly (DBL_DIG). */
const SAFE_DIGITS = 15;

/** The significant digits of a JSON number's source text: "-0.00120e5" -> "12". */
function significantDigits(source: string): string {
  const mantissa = source.replace(/^-/, '').split(/[eE]/)[0] ?? '';
  return mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
}

function invalid(key: string): AppError {
  return new AppError('VALIDATION', `"${key || 'body'}" contains an invalid value`);
}

/**
 * Parses a request body as JSON (Fastify content-type parser, `parseAs: 'string'`). Throws AppError
 * VALIDATION (400) naming the field for the cases above, and for text that is not JSON.
 */
export function parseJsonBody(
  _request: FastifyRequest,
  body: string,
  done: (err: Error | null, value?: unknown) => void,
) {
  try {
    const value: unknown = JSON.parse(body, function reviver(key, v, context?: { source?: string }) {
      if (key === '__proto__' || key === 'constructor') throw invalid(key);
      if (typeof v === 'string' && v.includes('\u0000')) throw invalid(key);
      if (typeof v === 'number' && context?.source && significantDigits(context.source).length > SAFE_DIGITS) {
        throw invalid(key);
      }
      return v;
    });
    done(null, value);
  } catch (err) {
    done(err instanceof AppError ? err : new AppError('VALIDATION', 'Body is not valid JSON'));
  }
}
