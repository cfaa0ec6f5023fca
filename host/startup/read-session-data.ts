import { SESSION_DATA_ELEMENT_ID, type SessionBootData } from '../../shared';
import { readJsonElement } from './read-boot-data';

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The session data the server put into a signed-in page (`<script type="application/json" id="slots-session-data">`):
 * what GET /me and GET /meta would answer, or null when there is none (an anonymous page, a development server) or
 * it does not have their shape, and the host then asks them as usual. Only read, never run.
 */
export function readSessionData(doc: Document | undefined = globalThis.document): SessionBootData | null {
  const value = doc ? readJsonElement(doc, SESSION_DATA_ELEMENT_ID) : null;
  if (!isObject(value) || !isObject(value.me) || !isObject(value.me.user) || !isObject(value.meta)) return null;
  const { meta } = value;
  if (!Array.isArray(meta.dashboards) || !Array.isArray(meta.modules) || !isObject(meta.slots)) return null;
  return value as unknown as SessionBootData;
}
