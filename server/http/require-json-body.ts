import { isUtf8 } from 'node:buffer';
import express, { type Request, type RequestHandler } from 'express';
import { ERROR_MESSAGES, JSON_DEPTH_MAX, nestsDeeperThan } from '../../shared';
import { HttpError } from './http-error';

/** `application/json` or a `+json` type, with any parameters (charset). */
const JSON_CONTENT_TYPE = /^application\/(?:[\w.-]+\+)?json\s*(?:;|$)/i;

/** The charset parameter of a content type, quoted or not. */
const CHARSET_PARAMETER = /;\s*charset\s*=\s*(?:"([^"]*)"|([^;\s]*))/i;

/** The largest JSON body the API reads; anything bigger is 413. */
export const JSON_BODY_LIMIT_BYTES = 16 * 1024;

/**
 * The content codings a JSON body may come in, besides none (`identity`): those the body parser decodes on every
 * Node version the server runs on (its zstd depends on the Node version, so it is not offered).
 */
export const JSON_BODY_CODINGS = ['gzip', 'deflate', 'br'] as const;
export type JsonBodyCoding = (typeof JSON_BODY_CODINGS)[number];

/** Messages of a refused JSON body whose type was right: they say what to send instead. */
export const JSON_BODY_MESSAGES = {
  unsupportedCharset: 'Only UTF-8 JSON is accepted: send Content-Type: application/json with charset=utf-8 or none.',
  unsupportedCoding:
    'Content-Encoding not supported: send the JSON body uncompressed, or compressed with ' +
    `${JSON_BODY_CODINGS.slice(0, -1).join(', ')} or ${JSON_BODY_CODINGS.at(-1)}.`,
  notUtf8:
    'The request body is not valid UTF-8 (bytes of another charset, such as Latin-1, or cut in the middle of a ' +
    'character): send the JSON encoded as UTF-8.',
  empty:
    'The request body is empty, and an empty body is no JSON: send the JSON this request takes ' +
    '(an object, {} where nothing is to be given).',
  tooDeep: `The JSON body nests more than ${JSON_DEPTH_MAX} arrays and objects deep: no request of this API needs that.`,
  undecodable: (coding: JsonBodyCoding) =>
    `The request body is not valid ${coding} data, as its Content-Encoding says: ` +
    `compress it with ${coding}, or send it uncompressed without Content-Encoding.`,
} as const;

/** The body parser's `type` of a body refused for not being UTF-8 (error-handler.ts words it). */
export const NOT_UTF8_BODY_TYPE = 'entity.not.utf8';

/** The `type` of a JSON request that came with no body: error-handler.ts words it. */
export const EMPTY_BODY_TYPE = 'entity.empty';

function emptyBodyError(): Error {
  return Object.assign(new Error('request body is empty'), { type: EMPTY_BODY_TYPE, status: 400 });
}

/**
 * The parser's check of the bytes it read (decompressed): some, in UTF-8, or refused. Without it the parser's decoder
 * put U+FFFD in place of each byte it could not decode, and a Latin-1 "Café" was saved as "Caf\uFFFD" with a 201.
 */
function verifyBytes(_req: unknown, _res: unknown, bytes: Buffer): void {
  // The parser reads no bytes as `{}`: an import of an empty body replaced the whole placements draft with nothing,
  // where a body that said nothing should change nothing.
  if (bytes.length === 0) throw emptyBodyError();
  if (!isUtf8(bytes)) throw Object.assign(new Error('body is not UTF-8'), { type: NOT_UTF8_BODY_TYPE, status: 400 });
}

function isJsonBodyCoding(coding: string): coding is JsonBodyCoding {
  return (JSON_BODY_CODINGS as readonly string[]).includes(coding);
}

/**
 * For routes that take a JSON body: a request of any other content type is 415 (which also keeps HTML forms of
 * other sites from posting here), as is one in another charset than UTF-8 (RFC 8259) or another content coding than
 * JSON_BODY_CODINGS, each with its own message; one over the limit (decompressed) 413, malformed JSON or bytes that
 * are not UTF-8 400. The parsed
 * body is in `req.body`. The limit may depend on the request (a record's, on its resource's fields).
 */
export function requireJsonBody(
  limitBytes: number | ((req: Request) => number) = JSON_BODY_LIMIT_BYTES,
): RequestHandler[] {
  const checkType: RequestHandler = (req, _res, next) => {
    const type = req.headers['content-type'];
    if (typeof type !== 'string' || !JSON_CONTENT_TYPE.test(type)) {
      next(new HttpError('unsupported_media_type', ERROR_MESSAGES.unsupportedMediaType));
      return;
    }
    const charset = CHARSET_PARAMETER.exec(type);
    if (charset && (charset[1] ?? charset[2] ?? '').toLowerCase() !== 'utf-8') {
      next(new HttpError('unsupported_media_type', JSON_BODY_MESSAGES.unsupportedCharset));
      return;
    }
    const coding = contentCodingOf(req.headers['content-encoding']);
    if (coding !== 'identity' && !isJsonBodyCoding(coding)) {
      next(new HttpError('unsupported_media_type', JSON_BODY_MESSAGES.unsupportedCoding));
      return;
    }
    next();
  };
  const parsers = new Map<number, RequestHandler>();
  const parserFor = (limit: number): RequestHandler => {
    let parser = parsers.get(limit);
    if (!parser)
      parsers.set(limit, (parser = express.json({ limit, strict: true, type: () => true, verify: verifyBytes })));
    return parser;
  };
  const parse: RequestHandler = (req, res, next) => {
    const limit = typeof limitBytes === 'number' ? limitBytes : limitBytes(req);
    // A body declared over the limit is refused before a byte of it is read: the parser would read (or wait for) all
    // of it first, up to the request's deadline for a client that announces more than it sends. The connection
    // closes after the answer (HTTP/1.1), so the rest is never read. Compressed, only the decoded size counts.
    const declared = Number(req.headers['content-length']);
    if (contentCodingOf(req.headers['content-encoding']) === 'identity' && declared > limit) {
      if (req.httpVersionMajor === 1) res.setHeader('Connection', 'close');
      // As the parser says it (its `type`, `limit`, `length`): each route words its 413 as for one it read.
      const tooLarge = Object.assign(new Error('request entity too large'), {
        type: 'entity.too.large',
        status: 413,
        limit,
        length: declared,
      });
      next(tooLarge);
      return;
    }
    const parser = parserFor(limit);
    parser(req, res, (error?: unknown) => {
      // A body that does not decompress fails in zlib, whose errors carry no body-parser `type`: without this it
      // was a bare 400 that did not say the Content-Encoding header and the bytes disagree.
      const coding = contentCodingOf(req.headers['content-encoding']);
      const typed = error !== null && typeof error === 'object' && 'type' in error;
      if (error && !typed && isJsonBodyCoding(coding)) {
        next(HttpError.invalidRequest(JSON_BODY_MESSAGES.undecodable(coding)));
        return;
      }
      // No body at all (neither Content-Length nor Transfer-Encoding): the parser leaves `req.body` unset, and the
      // routes read it as they would a body without the fields they need. Refused as an empty one is.
      if (!error && req.body === undefined) {
        next(emptyBodyError());
        return;
      }
      // Refused here once for every route: deeper JSON overflowed the stack of the code that reads it (a 500).
      if (!error && nestsDeeperThan(req.body)) {
        next(HttpError.invalidRequest(JSON_BODY_MESSAGES.tooDeep));
        return;
      }
      next(error);
    });
  };
  return [checkType, parse];
}

/**
 * The parsed body of a route that takes a JSON object, refused (400) when it is an array: read as an object without
 * the fields asked for, `[1, 2]` published the placements draft with its version check skipped.
 */
export function jsonObjectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw HttpError.invalidRequest(ERROR_MESSAGES.jsonNotObject);
  }
  return body as Record<string, unknown>;
}

/** The request's content coding as the body parser reads it: the header lowercased, `identity` without one. */
function contentCodingOf(header: string | undefined): string {
  return (header || 'identity').toLowerCase();
}
