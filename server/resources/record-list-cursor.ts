import type { RecordPosition } from '../storage/record-page-query';
import { hasLoneSurrogate } from './lone-surrogate';
import { isRecordId } from './record-id';

/**
 * The `next` / `previous` cursors of a list page: a record's position in a sort, with the sort's name and the search
 * so a cursor is never applied to another list (the record source relies on the cursor lying within the search),
 * and how many records of the list precede the page that follows a `next` cursor or the page a `previous` cursor
 * was taken from (`offset`: what lets a page say "26 to 50" without counting). Opaque to clients (base64url of
 * JSON); decoding checks every part, since a cursor comes back from the client.
 */
export function encodeRecordCursor(list: CursorList, position: RecordPosition, offset?: number): string {
  const body = {
    s: list.sort,
    q: list.q,
    ...(list.search ? { w: list.search } : {}),
    i: position.id,
    ...(position.key === undefined ? {} : { k: position.key }),
    ...(offset === undefined ? {} : { o: offset }),
  };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The list a cursor belongs to: its sort column, its prefix search and its word search ('' for none). */
export interface CursorList {
  sort: string;
  q: string;
  search: string;
}

export type DecodedCursor = { ok: true; list: CursorList; position: RecordPosition; offset?: number } | { ok: false };

export function decodeRecordCursor(cursor: string): DecodedCursor {
  if (cursor.length > 2048 || !/^[A-Za-z0-9_-]+$/.test(cursor)) return { ok: false };
  let body: unknown;
  try {
    body = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return { ok: false };
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return { ok: false };
  const { s: sort, q, w: search = '', k: key, i: id, o: offset } = body as Record<string, unknown>;
  if (typeof sort !== 'string' || typeof q !== 'string' || typeof search !== 'string') return { ok: false };
  if (!isRecordId(id)) return { ok: false };
  if (offset !== undefined && !(Number.isSafeInteger(offset) && (offset as number) >= 0)) return { ok: false };
  const counted = offset === undefined ? {} : { offset: offset as number };
  if (key === undefined) return { ok: true, list: { sort, q, search }, position: { id }, ...counted };
  if (typeof key !== 'string' && !(typeof key === 'number' && Number.isFinite(key))) return { ok: false };
  // PostgreSQL refuses U+0000 in a text parameter; no stored key holds it nor a lone surrogate (record updates refuse
  // both), and a cursor's JSON may carry either as an escape.
  if (typeof key === 'string' && (key.includes('\u0000') || hasLoneSurrogate(key))) return { ok: false };
  return { ok: true, list: { sort, q, search }, position: { key, id }, ...counted };
}
