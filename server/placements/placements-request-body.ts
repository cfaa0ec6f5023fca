import { placementsFrameProblem, type JsonValue } from '../../shared';
import { PLACEMENTS_BODY_LIMIT, PLACEMENTS_BODY_LIMIT_BYTES } from '../../shared/placements-limits';
import { HttpError } from '../http/http-error';

// What a placements request must send, and the words of its refusals (placements-router.ts).

/**
 * The deepest a saved document may nest: a placement is a few levels (document, remotes, entry, slots, list, slot,
 * props...) and props hold plain data; far deeper is no placement, and would not survive being written back as JSON.
 */
const MAX_DOCUMENT_DEPTH = 64;

/** The body parser's refusal of a body over the limit (an http-errors 413 of type `entity.too.large`). */
export function isBodyTooLarge(error: unknown): error is { length?: unknown } {
  return typeof error === 'object' && error !== null && (error as { type?: unknown }).type === 'entity.too.large';
}

/**
 * The 413 of a placements request, naming the limit (the generic "Request body too large." left the operator
 * guessing how much to cut) and the body's size when it came with a Content-Length.
 */
export function tooLargeMessage(error: { length?: unknown }): string {
  const size =
    typeof error.length === 'number' && error.length > PLACEMENTS_BODY_LIMIT_BYTES
      ? ` (this one: ${Math.ceil(error.length / 1024)} KiB)`
      : '';
  return (
    `Request body too large: a placements request carries at most ${PLACEMENTS_BODY_LIMIT} of JSON${size}. ` +
    'Make the document smaller (fewer slots, shorter props), or import a file holding its placements only.'
  );
}

/** `value` as a document to save, refused (400) when it nests deeper than MAX_DOCUMENT_DEPTH. */
export function shallowEnough(value: unknown): JsonValue {
  let level: unknown[] = [value];
  for (let depth = 0; level.length > 0; depth++) {
    if (depth > MAX_DOCUMENT_DEPTH) {
      throw HttpError.invalidRequest(`A placements document nests at most ${MAX_DOCUMENT_DEPTH} levels deep.`);
    }
    level = level.flatMap((item) => (typeof item === 'object' && item !== null ? Object.values(item) : []));
  }
  return value as JsonValue;
}

/** Refuses (400, nothing saved) a document no editor could open again (placementsFrameProblem). */
export function assertFrame(document: unknown): void {
  const problem = placementsFrameProblem(document);
  if (problem !== null) throw HttpError.invalidRequest(`Not saved: ${problem}`);
}

/**
 * The `expectedUpdatedAt` of a draft save, publish or rollback: left out (the draft is taken as it is), null (no
 * draft saved yet), or an ISO time.
 */
export function expectedVersion(value: unknown): string | null | undefined {
  if (value === undefined || value === null) return value;
  if (typeof value === 'string' && !Number.isNaN(Date.parse(value))) return value;
  throw HttpError.invalidRequest(
    '"expectedUpdatedAt" must be the updatedAt of the draft you loaded (an ISO 8601 time), or null when none was saved.',
  );
}

/** `expectedRevision` as given: the newest revision the caller saw (0: none), or undefined when not given. */
export function expectedRevision(value: unknown): number | undefined {
  if (value === undefined || value === 0) return value;
  const number = revisionNumber(value);
  if (typeof value === 'number' && number !== null) return number;
  throw HttpError.invalidRequest(
    '"expectedRevision" must be the number of the newest published revision you saw (0 when none was published).',
  );
}

/** A revision number as given (a JSON number, or a path's text): a whole number the column holds, else null. */
export function revisionNumber(value: unknown): number | null {
  const number = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : value;
  return typeof number === 'number' && Number.isInteger(number) && number >= 1 && number <= 2 ** 31 - 1 ? number : null;
}

/**
 * Refuses (400) a body with a key it does not take, naming them and those it takes: a misspelt `expectedUpdatedAt`
 * would otherwise be no time to check against, and another operator's draft saved over unseen.
 */
export function refuseUnknownKeys(value: Record<string, unknown>, allowed: readonly string[], what: string): void {
  const unknown = Object.keys(value).filter((key) => !allowed.includes(key));
  if (unknown.length > 0) {
    throw HttpError.invalidRequest(`${what} has unknown key(s) ${unknown.join(', ')}; allowed: ${allowed.join(', ')}.`);
  }
}
