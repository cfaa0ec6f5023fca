import { boundedText } from '../http/bounded-text';
import { redirectRefusal } from '../http/redirect-refusal';
import { outgoingTraceHeaders } from '../observability/request-trace';
import type { TraceContext } from '../observability/trace-context';
import { DEFAULT_DESCRIPTOR_TIMEOUT_MS } from '../remotes/http-descriptor-source';
import type { ReleaseAddressGuard } from '../remotes/release-address-guard';
import {
  manifestExposeNames,
  manifestRemoteEntry,
  remoteEntryUrl,
  type ManifestRemoteEntry,
} from '../remotes/manifest-remote-entry';
import { quotedValue, shortened } from '../http/quoted-value';
import { htmlInsteadOfScript } from './html-instead-of-script';
import { manifestRemoteNameProblem } from './manifest-remote-name';
import { manifestCorsRefusal, pageOriginAsking } from './manifest-cors';
import type { ErrorAnswer } from './release-not-deployed';

/**
 * The largest `mf-manifest.json` read (1 MiB): a build's manifest is a few KiB per exposed component, and the
 * answer of a team's origin must not fill the server's memory.
 */
export const MANIFEST_MAX_BYTES = 1024 * 1024;

/** What is wrong with a release's files: `unanswered` when its origin did not answer (in time, or at all). */
export interface ReleaseFilesProblem {
  message: string;
  unanswered: boolean;
  /** The error status the file answered, when that is the problem (a publish says what a 404 asks of the team). */
  errorAnswer?: ErrorAnswer;
}

export interface ReleaseFilesCheckOptions {
  /** How long each request may take (the descriptor's timeout, REMOTE_DESCRIPTOR_TIMEOUT_MS). */
  timeoutMs?: number;
  /**
   * The origin of the product's pages (PUBLIC_URL's): a manifest elsewhere must answer it with CORS
   * (manifest-cors.ts). Undefined: CORS is not checked, the server not knowing what origin to ask for.
   */
  pageOrigin?: string;
  /**
   * The requests for a team's releases go through it (release-address-guard.ts): a file on an internal address is
   * refused, as an answer would be, nothing asked there. None: the global fetch (REMOTES_CONFIG's entries).
   */
  guard?: Pick<ReleaseAddressGuard, 'fetchFor'>;
}

/**
 * Whether the files a page loads first from a release answer: its `mf-manifest.json` (a federation manifest of the
 * remote, naming a remote entry script) and that script (not an HTML page). A release whose manifest or entry is
 * missing or wrong would make every slot of its remote fail once in force, so it is refused when published, and
 * again when put in force (release-files-refusal.ts), as files deleted since fail alike. The script is asked only on
 * the manifest's origin (the one a page may load it from): one the manifest names elsewhere is refused unasked. The
 * manifest is asked as the product's pages ask it, with their Origin, when their origin is known (PUBLIC_URL), and
 * refused without the CORS answer they need.
 */
export class ReleaseFilesCheck {
  private readonly timeoutMs: number;
  private readonly pageOrigin: string | undefined;
  private readonly guard: Pick<ReleaseAddressGuard, 'fetchFor'> | undefined;

  constructor(options: ReleaseFilesCheckOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DESCRIPTOR_TIMEOUT_MS;
    this.pageOrigin = options.pageOrigin;
    this.guard = options.guard;
  }

  /**
   * Null when both answer, as files of `remote`; otherwise which file is missing or wrong and where it was looked
   * for, for the team.
   */
  async problem(
    remote: string,
    manifestUrl: string,
    trace?: TraceContext,
    components?: readonly string[],
  ): Promise<string | null> {
    return (await this.check(remote, manifestUrl, trace, components))?.message ?? null;
  }

  /**
   * {@link problem}, saying also whether the origin answered at all (release-files-refusal.ts tells them apart).
   * `components`: the components the release's descriptor names, each of which the manifest must expose.
   */
  async check(
    remote: string,
    manifestUrl: string,
    trace?: TraceContext,
    components?: readonly string[],
  ): Promise<ReleaseFilesProblem | null> {
    const origin = pageOriginAsking(manifestUrl, this.pageOrigin);
    const manifest = await this.get(remote, manifestUrl, trace, origin, async (response) => {
      const refused = origin === undefined ? null : manifestCorsRefusal(manifestUrl, response, origin);
      if (refused !== null) {
        await response.body?.cancel();
        return refused;
      }
      const text = await boundedText(response, MANIFEST_MAX_BYTES);
      return text === null ? `${manifestUrl} is larger than ${MANIFEST_MAX_BYTES} bytes` : { text };
    });
    if ('failed' in manifest) {
      const { failed, unanswered, errorAnswer } = manifest;
      return {
        message: `its mf-manifest.json cannot be read: ${failed}`,
        unanswered,
        ...(errorAnswer && { errorAnswer }),
      };
    }
    const problem = this.manifestProblem(remote, manifestUrl, manifest.read.text, components);
    if (typeof problem === 'string') return { message: problem, unanswered: false };
    const { entry, entryUrl } = problem;
    const script = await this.get(remote, entryUrl, trace, undefined, async (response) => {
      return (await htmlInsteadOfScript(entryUrl, response)) ?? {};
    });
    if ('failed' in script) {
      const { failed, unanswered, errorAnswer } = script;
      return {
        message: `the remote entry script "${entry.file}" its mf-manifest.json names cannot be loaded: ` + failed,
        unanswered,
        ...(errorAnswer && { errorAnswer }),
      };
    }
    return null;
  }

  /** What is wrong with the manifest `text` read at `manifestUrl`, or the entry script it names and where to ask it. */
  private manifestProblem(
    remote: string,
    manifestUrl: string,
    text: string,
    components: readonly string[] = [],
  ): string | { entry: ManifestRemoteEntry; entryUrl: string } {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text) as unknown;
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
    const named = manifestRemoteNameProblem(parsed, remote, manifestUrl);
    if (named !== null) return named;
    const unexposed = unexposedComponentsProblem(parsed, components);
    if (unexposed !== null) return unexposed;
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
    return { entry, entryUrl: entryUrl.href };
  }

  /**
   * GET `url` (from `origin` when given, as a page there asks): what `read` makes of a 200 (within the timeout too),
   * or what went wrong: what the origin answered (`<url> answered 404`, a redirect, what `read` refused), or that it
   * did not answer (in time, or at all). `remote`: whose release the file is (the guard's rule).
   */
  private async get<T extends object>(
    remote: string,
    url: string,
    trace: TraceContext | undefined,
    origin: string | undefined,
    read: (response: Response) => Promise<T | string>,
  ): Promise<{ read: T } | { failed: string; unanswered: boolean; errorAnswer?: ErrorAnswer }> {
    const answered = (failed: string, errorAnswer?: ErrorAnswer) => ({
      failed,
      unanswered: false,
      ...(errorAnswer && { errorAnswer }),
    });
    try {
      const fetching = this.guard?.fetchFor(remote, url) ?? fetch;
      const response = await fetching(url, {
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: origin === undefined ? outgoingTraceHeaders(trace) : { ...outgoingTraceHeaders(trace), origin },
        // Read at the address given, never where its origin redirects to (redirectRefusal says why).
        redirect: 'manual',
      });
      const redirect = await redirectRefusal(url, response);
      if (redirect !== null) return answered(redirect);
      if (!response.ok) {
        await response.body?.cancel();
        return answered(`${url} answered ${response.status}`, { url, status: response.status });
      }
      const body = await read(response);
      return typeof body === 'string' ? answered(body) : { read: body };
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        return { failed: `${url} did not answer within ${this.timeoutMs} ms`, unanswered: true };
      }
      const { cause } = error as Error & { cause?: { message?: unknown } };
      const why = typeof cause?.message === 'string' && cause.message !== '' ? cause.message : (error as Error).message;
      // Refused by the guard, not unanswered: putting such a release in force is refused as an answer would be.
      const guarded = (cause as { name?: unknown } | undefined)?.name === 'InternalAddressError';
      return { failed: `${url}: ${why}`, unanswered: !guarded };
    }
  }
}

/**
 * The components the descriptor names that the manifest exposes no module for (`./<component>`, what a page asks the
 * runtime for), said for the team, or null. A descriptor edited by hand or copied from another build would otherwise
 * pass every check and fail its slots only in the browser (`Module "./Ghost" does not exist in container`). A
 * manifest without an `exposes` list says nothing either way.
 */
function unexposedComponentsProblem(manifest: unknown, components: readonly string[]): string | null {
  const exposed = manifestExposeNames(manifest);
  if (exposed === null || components.length === 0) return null;
  const missing = components.filter((component) => !exposed.has(component));
  if (missing.length === 0) return null;
  return (
    `its mf-manifest.json exposes no module for ${missing.map((name) => `"${name}"`).join(', ')}, which its ` +
    `slots-remote.json names (it exposes ${exposed.size === 0 ? 'none' : [...exposed].join(', ')}): the descriptor is ` +
    "not this build's; publish the slots-remote.json built with the bundle"
  );
}
