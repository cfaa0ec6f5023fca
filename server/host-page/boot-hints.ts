import { REMOTE_HINTS_MARKER, type RemoteDescriptor } from '../../shared';
import type { BuiltRemoteFiles } from './built-remote-files';

/** One `<link>` for the head of index.html. */
export interface BootHint {
  rel: 'preload' | 'preconnect';
  href: string;
  /** For preloads: what the file is, so the browser can match it to the request the page makes later. */
  as?: 'fetch' | 'script' | 'style';
  /** A CORS request (the federation runtime fetches manifests with `fetch`, in CORS mode). */
  crossorigin?: boolean;
  /** Only where this media query matches. */
  media?: string;
}

export interface BootHintInput {
  /** The components the page's slots render for its visitor (pageComponents), with their media query or null. */
  components: ReadonlyMap<string, string | null>;
  /** The remotes the host registers (GET /api/remotes), in order: the first provider of a component wins. */
  remotes: readonly RemoteDescriptor[];
  /** The files of a remote this server builds and serves; null for a remote it does not. */
  builtFiles(remote: RemoteDescriptor): BuiltRemoteFiles | null;
}

function originOf(entry: string): string | null {
  try {
    const url = new URL(entry);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * The resource hints for a page: for every remote that provides one of the page's components (pageComponents),
 * what the federation runtime will fetch from it. For a remote this server builds: its entry (and its manifest when
 * the page registers the remote by it, see registeredRemotes) and those components' files, as preloads, so they arrive with the host's own files instead of one round trip after
 * another once the host has started. For a remote elsewhere: a preconnect only (its files are not known here, and
 * a preload of a remote that hangs would hold up the page's load event).
 *
 * For anyone but a signed-in session the components come from public locations only, so the hints reveal nothing
 * that GET /slots does not; a signed-in page (private, never stored) names those of every slot it renders.
 */
export function bootHints(input: BootHintInput): BootHint[] {
  const providers = new Map<string, RemoteDescriptor>();
  for (const remote of input.remotes) {
    for (const component of remote.components) if (!providers.has(component)) providers.set(component, remote);
  }

  const byRemote = new Map<RemoteDescriptor, Array<[string, string | null]>>();
  for (const [component, media] of input.components) {
    const remote = providers.get(component);
    if (!remote) continue;
    const list = byRemote.get(remote) ?? [];
    list.push([component, media]);
    byRemote.set(remote, list);
  }

  const hints: BootHint[] = [];
  for (const [remote, components] of byRemote) {
    const files = input.builtFiles(remote);
    if (!files) {
      const origin = originOf(remote.entry);
      if (origin) hints.push({ rel: 'preconnect', href: origin, crossorigin: true });
      continue;
    }
    // A file needed at every width is preloaded at every width; one needed only by the sidebar, with its query.
    const assets = new Map<string, { as: 'script' | 'style'; media: string | null }>();
    const need = (href: string, as: 'script' | 'style', media: string | null) => {
      const known = assets.get(href);
      if (!known || media === null) assets.set(href, { as, media: known && known.media === null ? null : media });
    };
    for (const [component, media] of components) {
      const expose = files.exposes.get(component);
      for (const href of expose?.js ?? []) need(href, 'script', media);
      for (const href of expose?.css ?? []) need(href, 'style', media);
    }
    const remoteMedia = components.every(([, media]) => media !== null) ? (components[0]?.[1] ?? null) : null;
    const conditional = remoteMedia ? { media: remoteMedia } : {};
    // A remote the boot data registers by its entry script (registeredRemotes) has no manifest to fetch.
    if (!files.loadableByEntry) {
      hints.push({ rel: 'preload', as: 'fetch', crossorigin: true, href: files.manifest, ...conditional });
    }
    hints.push({ rel: 'preload', as: 'script', href: files.entry, ...conditional });
    for (const [href, { as, media }] of assets) hints.push({ rel: 'preload', as, href, ...(media ? { media } : {}) });
  }
  return hints;
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The hints as `<link>` elements. */
export function renderBootHints(hints: readonly BootHint[]): string {
  return hints
    .map((hint) => {
      const attributes = [`rel="${hint.rel}"`, `href="${escapeAttribute(hint.href)}"`];
      if (hint.as) attributes.push(`as="${hint.as}"`);
      if (hint.crossorigin) attributes.push('crossorigin');
      if (hint.media) attributes.push(`media="${escapeAttribute(hint.media)}"`);
      return `<link ${attributes.join(' ')}>`;
    })
    .join('');
}

/**
 * The element a federated host's index.html carries where the server's additions belong (REMOTE_HINTS_MARKER,
 * after the host's own boot files, so the browser requests those first; host/build/boot-preload-plugin.ts writes
 * it). A page without it (a host that loads no remotes) gets nothing.
 */
const MARKER_ELEMENT = new RegExp(`<meta\\s+name=(["']?)${REMOTE_HINTS_MARKER}\\1(?=[\\s/>])[^>]*>`, 'i');

/** index.html with the marker element replaced by `markup`; unchanged when it has no marker. */
export function replaceHintsMarker(html: string, markup: string): string {
  const marker = MARKER_ELEMENT.exec(html);
  if (!marker) return html;
  return `${html.slice(0, marker.index)}${markup}${html.slice(marker.index + marker[0].length)}`;
}
