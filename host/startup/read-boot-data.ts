import {
  BOOT_DATA_ELEMENT_ID,
  COMPONENT_NAME_PATTERN,
  SESSION_DATA_ELEMENT_ID,
  type BootComponent,
  type RemoteDescriptor,
  type PageSessionData,
  type SignedOutBootData,
} from '../../shared';
import { parseRemotesPayload } from '../loader/remote-descriptors';

/** The usable part of the page's boot data (shared/wire.ts BootData). */
export interface ParsedBootData {
  remotes: RemoteDescriptor[];
  showSlotDetails: boolean;
  components: BootComponent[];
  /** Malformed parts that were dropped, for one warning. */
  problems: string[];
}

function parseComponents(value: unknown, problems: string[]): BootComponent[] {
  if (!Array.isArray(value)) {
    problems.push('`components` is not a list');
    return [];
  }
  const components: BootComponent[] = [];
  value.forEach((raw: unknown, index) => {
    const item = raw as Partial<BootComponent> | null;
    if (!item || typeof item.component !== 'string' || !COMPONENT_NAME_PATTERN.test(item.component)) {
      problems.push(`components[${index}] is not a component`);
      return;
    }
    if (item.media !== undefined && typeof item.media !== 'string') {
      problems.push(`components[${index}] has a media query that is not text`);
      return;
    }
    components.push(
      item.media === undefined ? { component: item.component } : { component: item.component, media: item.media },
    );
  });
  return components;
}

/**
 * The parsed text of the page's `<script type="application/json" id="…">` data block; null without one, or when its
 * text is not JSON. The text is only parsed, never run.
 */
export function readJsonElement(doc: Document, id: string): unknown {
  const element = doc.getElementById(id);
  if (!element || element.getAttribute('type') !== 'application/json') return null;
  try {
    return JSON.parse(element.textContent ?? '') as unknown;
  } catch {
    return null;
  }
}

/**
 * The boot data the server put into index.html (`<script type="application/json" id="slots-boot-data">`), or null
 * when there is none (a server that does not write it, a development server) or it is not JSON: the host then asks
 * GET /api/remotes as usual. Only read, never run.
 */
export function readBootData(doc: Document = document): ParsedBootData | null {
  const value = readJsonElement(doc, BOOT_DATA_ELEMENT_ID);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const { remotes, problems, showSlotDetails } = parseRemotesPayload(value);
  const components = parseComponents((value as { components?: unknown }).components, problems);
  return { remotes, components, problems, showSlotDetails };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The session data the server put into a page (`<script type="application/json" id="slots-session-data">`): what
 * GET /me and GET /meta would answer a signed-in page, `{ me: null }` when the page's request carried no session
 * (with `slots`, what GET /slots would answer, when the server put it in and it has its shape), or null when there is
 * none (a development server, a user of no tenant) or it does not have their shape, and the host then asks GET /me as
 * usual. Only read, never run.
 */
export function readSessionData(doc: Document | undefined = globalThis.document): PageSessionData | null {
  const value = doc ? readJsonElement(doc, SESSION_DATA_ELEMENT_ID) : null;
  // Its public slots, when there, are checked where every slot answer is (parse-slot-map.ts).
  if (isObject(value) && value.me === null) return value as unknown as SignedOutBootData;
  if (!isObject(value) || !isObject(value.me) || !isObject(value.me.user) || !isObject(value.meta)) return null;
  const { meta } = value;
  if (!Array.isArray(meta.dashboards) || !Array.isArray(meta.modules) || !isObject(meta.slots)) return null;
  return value as unknown as PageSessionData;
}
