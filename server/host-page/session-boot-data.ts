import { SESSION_DATA_ELEMENT_ID, type MePayload, type SlotMap } from '../../shared';
import { jsonForHtml } from './boot-data';

/** What the server knows of a page request's signed-in user, for the page it sends them. */
export interface SignedInPage {
  /** The answer GET /me would give this session. */
  me: MePayload;
  /** The bytes GET /meta would send this session (its tenant's cached body, the same array while nothing changes). */
  meta: readonly Buffer[];
  /** Every location's slots (what the `/meta` body carries), for the hints of the page's components. */
  slots: SlotMap;
}

/** What the page of a request without a session says of it (SignedOutBootData): nobody is signed in. */
export const NOBODY_SIGNED_IN = 'nobody-signed-in';

/**
 * The {@link SignedOutBootData} element without the public slots (no `publicSlots` source given): the host then
 * takes nobody for signed in without asking GET /me, and asks GET /slots.
 */
export const SIGNED_OUT_BOOT_DATA = `<script type="application/json" id="${SESSION_DATA_ELEMENT_ID}">{"me":null}</script>`;

/** The escaped `/meta` text per cached body: it is escaped once, not per page. */
const escapedMeta = new WeakMap<readonly Buffer[], string>();
/** The signed-out element per cached GET /slots body (a new Buffer per registry version): built once, not per page. */
const signedOutElements = new WeakMap<Buffer, string>();

/**
 * The {@link SignedOutBootData} element of a page whose request carried no session: `{"me":null,"slots":…}`, `slots`
 * being `slotsBody`, the very bytes GET /slots sends now (the public locations only, the same for every visitor),
 * escaped with jsonForHtml as the signed-in data is. The host renders the public slots from it at once, in their
 * places around the sign-in form, instead of waiting for GET /slots (host/loader/slot-source.ts).
 */
export function renderSignedOutBootData(slotsBody: Buffer): string {
  let element = signedOutElements.get(slotsBody);
  if (element === undefined) {
    const slots = jsonForHtml(slotsBody.toString('utf8'));
    element = `<script type="application/json" id="${SESSION_DATA_ELEMENT_ID}">{"me":null,"slots":${slots}}</script>`;
    signedOutElements.set(slotsBody, element);
  }
  return element;
}

/**
 * The {@link SessionBootData} element of a signed-in page: `{"me":…,"meta":…}` as a JSON data block the host reads
 * instead of asking GET /me and GET /meta (host/startup/read-boot-data.ts). Not a script the browser runs (the
 * Content-Security-Policy allows none inline), escaped with jsonForHtml so no value can close it. For the session's
 * own user only, in an answer marked `private, no-store`.
 */
export function renderSessionBootData(page: Pick<SignedInPage, 'me' | 'meta'>): string {
  let meta = escapedMeta.get(page.meta);
  if (meta === undefined) {
    meta = jsonForHtml(Buffer.concat(page.meta).toString('utf8'));
    escapedMeta.set(page.meta, meta);
  }
  const me = jsonForHtml(JSON.stringify(page.me));
  return `<script type="application/json" id="${SESSION_DATA_ELEMENT_ID}">{"me":${me},"meta":${meta}}</script>`;
}

const HEAD_END = /<\/head\s*>/i;

/** index.html with `markup` at the end of its head (before `<body` when the head is not closed); else unchanged. */
export function insertAtHeadEnd(html: string, markup: string): string {
  const end = HEAD_END.exec(html) ?? /<body[\s>]/i.exec(html);
  if (!end) return html;
  return `${html.slice(0, end.index)}${markup}${html.slice(end.index)}`;
}
