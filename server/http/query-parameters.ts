import type { Request, RequestHandler } from 'express';
import { HttpError } from './http-error';

// What the API's query strings may hold: text that decodes, and only the parameters a route reads.

/** A query parameter's name as written in a message: quoted, and cut where it runs long. */
function quoted(name: string): string {
  return JSON.stringify(name.length > 40 ? `${name.slice(0, 40)}…` : name);
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text.replace(/\+/g, ' '));
    return true;
  } catch {
    return false;
  }
}

/**
 * The API routes' query strings, refused (400, naming the parameter) when one does not decode as UTF-8
 * (`?q=%ff`, `?q=%E0%A4%A`): Express's parser reads each undecodable byte as U+FFFD, so a search ran for text the
 * client never sent, and its answer echoed that text back as what was asked. Paths are refused the same way
 * (ERROR_MESSAGES.undecodablePath). Only the query's bytes are read: a request without a query costs one search.
 */
export const refuseUndecodableQuery: RequestHandler = (req, _res, next) => {
  const start = req.url.indexOf('?');
  if (start === -1) {
    next();
    return;
  }
  for (const pair of req.url.slice(start + 1).split('&')) {
    const equals = pair.indexOf('=');
    const name = equals === -1 ? pair : pair.slice(0, equals);
    if (!decodes(name)) {
      next(HttpError.invalidRequest(`A query parameter's name (${quoted(name)}) is not valid percent-encoding.`));
      return;
    }
    if (equals !== -1 && !decodes(pair.slice(equals + 1))) {
      const decodedName = decodeURIComponent(name.replace(/\+/g, ' '));
      next(
        HttpError.invalidRequest(
          `The query parameter ${quoted(decodedName)} is not valid percent-encoding: send its text as UTF-8, ` +
            'each byte outside letters and digits written %XX.',
        ),
      );
      return;
    }
  }
  next();
};

/**
 * Refuses (400) a query parameter the route does not read, naming it and those it does: misspelt or written as an
 * array (`from[]=draft`), it was ignored, and the route answered with its default (the published document, not the
 * draft asked for) as though it had been given.
 */
export function refuseUnknownQueryParameters(req: Request, known: readonly string[], what: string): void {
  const unknown = Object.keys(req.query).find((name) => !known.includes(name));
  if (unknown === undefined) return;
  const takes = known.length === 0 ? 'no query parameter' : `only ${known.map((name) => `"${name}"`).join(', ')}`;
  throw HttpError.invalidRequest(`Unknown query parameter ${quoted(unknown)}: ${what} takes ${takes}.`);
}
