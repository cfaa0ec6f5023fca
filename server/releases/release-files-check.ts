import { boundedText } from '../http/bounded-text';
import { redirectRefusal } from '../http/redirect-refusal';
import { outgoingTraceHeaders } from '../observability/request-trace';
import type { TraceContext } from '../observability/trace-context';
import { DEFAULT_DESCRIPTOR_TIMEOUT_MS } from '../remotes/http-descriptor-source';
import { manifestRemoteEntry, remoteEntryUrl } from '../remotes/manifest-remote-entry';
import { quotedValue, shortened } from '../remotes/quoted-value';

/**
 * The largest `mf-manifest.json` read (1 MiB): a build's manifest is a few KiB per exposed component, and the
 * answer of a team's origin must not fill the server's memory.
 */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

export interface ReleaseFilesCheckOptions {
  /** How long each request may take (the descriptor's timeout, REMOTE_DESCRIPTOR_TIMEOUT_MS). */
  timeoutMs?: number;
}

/**
 * Whether the files a page loads first from a release answer: its `mf-manifest.json` (a federation manifest naming
 * a remote entry script) and that script. A release whose manifest or entry is missing would make every slot of its
 * remote fail once activated, so it is refused when published. The script is asked only on the manifest's origin
 * (the one a page may load it from): one the manifest names elsewhere is refused unasked. CORS on the team's origin
 * is not checked (the server is no browser): a page that may not read the manifest fails as before.
 */
export class ReleaseFilesCheck {
  private readonly timeoutMs: number;

  constructor(options: ReleaseFilesCheckOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DESCRIPTOR_TIMEOUT_MS;
  }

  /** Null when both answer; otherwise which file is missing and where it was looked for, for the team. */
  async problem(manifestUrl: string, trace?: TraceContext): Promise<string | null> {
    const manifest = await this.get(manifestUrl, trace, true);
    if (typeof manifest === 'string') return `its mf-manifest.json cannot be read: ${manifest}`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(manifest.text) as unknown;
    } catch {
      return `its mf-manifest.json at ${manifestUrl} is not JSON`;
    }
    const entry = manifestRemoteEntry(parsed);
    if (entry === null) {
      return (
        `its mf-manifest.json at ${manifestUrl} is not a federation manifest naming a remote entry script ` +
        '(metaData.remoteEntry with a file name)'
      );
    }
    let entryUrl: URL;
    try {
      entryUrl = new URL(remoteEntryUrl(entry, manifestUrl));
    } catch {
      return (
        'its mf-manifest.json names its remote entry script after a metaData.publicPath that makes no URL with it ' +
        `(${quotedValue(entry.publicPath)})`
      );
    }
    // Only where a page may load the script from: the origin of the release's entry, the one the page's
    // Content-Security-Policy allows for the release (security/remote-origins.ts). A script anywhere else would be
    // refused by every browser, and asking for it would let the manifest send the server's request anywhere, an
    // internal address included, whose answer the refusal would then tell (server-side request forgery).
    const allowed = new URL(manifestUrl).origin;
    if (entryUrl.origin !== allowed) {
      return (
        `its mf-manifest.json names its remote entry script at ${shortened(entryUrl.href)} (after ` +
        `metaData.publicPath), on another origin than the manifest: a page loads this release's scripts from ` +
        `${allowed} only (the origin of the release's entry, the one its Content-Security-Policy allows), so the ` +
        `script was not requested; serve it beside the manifest (publicPath "auto") or under ${allowed}`
      );
    }
    const script = await this.get(entryUrl.href, trace, false);
    if (typeof script === 'string') {
      return `the remote entry script "${entry.file}" its mf-manifest.json names cannot be loaded: ${script}`;
    }
    return null;
  }

  /**
   * GET `url`: its text (when `read`), or what went wrong (`<url> answered 404`, a redirect, did not answer in time,
   * down). The body of a script is not read: its status is what a page would meet first.
   */
  private async get(url: string, trace: TraceContext | undefined, read: boolean): Promise<{ text: string } | string> {
    try {
      const response = await fetch(url, {
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: outgoingTraceHeaders(trace),
        // Read at the address given, never where its origin redirects to (redirectRefusal says why).
        redirect: 'manual',
      });
      const redirect = await redirectRefusal(url, response);
      if (redirect !== null) return redirect;
      if (!response.ok) {
        await response.body?.cancel();
        return `${url} answered ${response.status}`;
      }
      if (!read) {
        await response.body?.cancel();
        return { text: '' };
      }
      const text = await boundedText(response, MANIFEST_MAX_BYTES);
      return text === null ? `${url} is larger than ${MANIFEST_MAX_BYTES} bytes` : { text };
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') return `${url} did not answer within ${this.timeoutMs} ms`;
      const { cause } = error as Error & { cause?: { message?: unknown } };
      const why = typeof cause?.message === 'string' && cause.message !== '' ? cause.message : (error as Error).message;
      return `${url}: ${why}`;
    }
  }
}
