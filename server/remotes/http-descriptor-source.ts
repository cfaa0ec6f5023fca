import { REMOTE_DESCRIPTOR_FILE, type RemoteDescriptor, type RemoteDescriptorFile } from '../../shared';
import { boundedText } from '../http/bounded-text';
import { redirectRefusal } from '../http/redirect-refusal';
import { outgoingTraceHeaders } from '../observability/request-trace';
import type { TraceContext } from '../observability/trace-context';
import type { DescriptorOutcome, DescriptorSource } from './descriptor-source';
import type { ReleaseAddressGuard } from './release-address-guard';
import { parseRemoteDescriptorFile } from './remote-names';
import type { PendingRemote } from './remotes-config';

export const DEFAULT_DESCRIPTOR_TIMEOUT_MS = 3000;

/**
 * The largest `slots-remote.json` read (1 MiB, as the manifest): a build's descriptor is component names and their
 * props schemas, a few KiB, and what a remote's origin answers must not fill the server's memory.
 */
export const DESCRIPTOR_MAX_BYTES = 1024 * 1024;

export interface HttpDescriptorSourceOptions {
  /** How long one descriptor request may take; a remote that does not answer in time is retried later. */
  timeoutMs?: number;
  /** Pass a kit dev server's `devEvents` on to the host (development servers only: it makes pages reload). */
  passDevEvents?: boolean;
  /** The requests for releases' descriptors go through it (release-address-guard.ts); none: the global fetch. */
  guard?: Pick<ReleaseAddressGuard, 'fetchFor'>;
}

/**
 * Reads a kit-built remote's descriptor file (`slots-remote.json`, beside its manifest) from the remote's origin,
 * each request bounded by the timeout, each answer by its size. Unreachable, timed out, an error status, a redirect
 * (never followed), too large, invalid JSON or a file naming another remote: a failing outcome with the reason, for
 * the log and for a team publishing a release. A reason quotes little of what the origin answered: it may come from
 * anywhere, secrets included.
 */
export class HttpDescriptorSource implements DescriptorSource {
  private readonly timeoutMs: number;

  constructor(private readonly options: HttpDescriptorSourceOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DESCRIPTOR_TIMEOUT_MS;
  }

  async read(remote: PendingRemote, trace?: TraceContext): Promise<DescriptorOutcome> {
    try {
      const fetching = this.options.guard?.fetchFor(remote.name, remote.descriptorUrl) ?? fetch;
      const response = await fetching(remote.descriptorUrl, {
        signal: AbortSignal.timeout(this.timeoutMs),
        // The trace goes along (W3C traceparent), so the remote's logs can be matched to ours.
        headers: { Accept: 'application/json', ...outgoingTraceHeaders(trace) },
        // Read at the address given, never where its origin redirects to (redirectRefusal says why).
        redirect: 'manual',
      });
      const redirect = await redirectRefusal(remote.descriptorUrl, response);
      if (redirect !== null) return badAnswer(redirect);
      if (!response.ok) {
        await response.body?.cancel();
        return badAnswer(`${remote.descriptorUrl} answered ${response.status}`, response.status);
      }
      const text = await boundedText(response, DESCRIPTOR_MAX_BYTES);
      if (text === null) return badAnswer(`${remote.descriptorUrl} is larger than ${DESCRIPTOR_MAX_BYTES} bytes`);
      // Parsed here, not with response.json(): the checks expect plain objects of this realm.
      let raw: unknown;
      try {
        raw = JSON.parse(text) as unknown;
      } catch (error) {
        // An origin serving a single-page app answers a file it lacks with its index page, status 200: said as such.
        const page = pageInsteadOfFile(response, text);
        if (page !== null) return badAnswer(`${remote.descriptorUrl} ${page}`);
        // Not the parser's message: it quotes the text, which is whatever the origin answered.
        return badAnswer(`${remote.descriptorUrl} is not valid JSON${placeOfSyntaxError(error as Error)}`);
      }
      let file: RemoteDescriptorFile;
      try {
        file = parseRemoteDescriptorFile(raw, remote.descriptorUrl);
      } catch (error) {
        // Its message names the file already, as a sentence; a reason is no sentence (the refusal ends it).
        return badAnswer((error as Error).message.replace(/\.$/, ''));
      }
      if (file.name !== remote.name) {
        return badAnswer(`${remote.descriptorUrl} describes remote "${file.name}", not "${remote.name}"`);
      }
      const descriptor: RemoteDescriptor = {
        name: remote.name,
        entry: remote.entry,
        components: file.components,
        formComponents: file.formComponents,
      };
      if (this.options.passDevEvents && file.devEvents !== undefined) {
        const devEvents = new URL(file.devEvents, remote.descriptorUrl);
        // Sent to every visitor with the remotes (GET /api/remotes, the boot data), like the entry: no credentials.
        if (devEvents.username !== '' || devEvents.password !== '') {
          return badAnswer(
            `${remote.descriptorUrl} gives a devEvents URL with credentials (user:password@), which every visitor would read`,
          );
        }
        descriptor.devEvents = devEvents.href;
      }
      return {
        status: 'ready',
        descriptor,
        props: file.props ?? {},
        ...(file.kit ? { kit: file.kit } : {}),
        ...(file.devEvents !== undefined ? { developmentServer: true } : {}),
      };
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') {
        return {
          status: 'failing',
          failure: 'timed-out',
          reason: `${remote.descriptorUrl} did not answer within ${this.timeoutMs} ms`,
        };
      }
      // fetch fails with a TypeError when no answer came (its cause: ECONNREFUSED, ENOTFOUND, a reset socket); any
      // other error came from reading what did come (invalid JSON, a file failing its checks).
      // (By name: fetch's errors may come from another realm than this file's TypeError, as under a test runner.)
      if ((error as Error).name === 'TypeError' && (error as Error & { cause?: unknown }).cause !== undefined) {
        const reason = `${remote.descriptorUrl}: ${connectionFailure(error as Error)}`;
        return { status: 'failing', failure: 'down', reason };
      }
      return badAnswer(`${remote.descriptorUrl}: ${(error as Error).message}`);
    }
  }
}

/** `answered`: the error status the origin answered, when that is the reason. */
function badAnswer(reason: string, answered?: number): DescriptorOutcome {
  return { status: 'failing', failure: 'bad-answer', reason, ...(answered === undefined ? {} : { answered }) };
}

/** Where JSON.parse stopped (` (line 1 column 13)`, ` (position 12)`), or nothing when its message does not say. */
function placeOfSyntaxError(error: Error): string {
  const place = /\bline (\d+) column (\d+)/.exec(error.message) ?? /\bat position (\d+)/.exec(error.message);
  if (place === null) return '';
  return place.length === 3 ? ` (line ${place[1]} column ${place[2]})` : ` (position ${place[1]})`;
}

/** fetch's own message is only "fetch failed"; the cause says what happened (`connect ECONNREFUSED 127.0.0.1:1`). */
function connectionFailure(error: Error): string {
  const { cause } = error as Error & { cause?: { message?: unknown } };
  return typeof cause?.message === 'string' && cause.message !== '' ? cause.message : error.message;
}

/**
 * Why a descriptor that is no JSON is an HTML page (its Content-Type, or how it starts), or null: most often the file
 * is missing from the folder and the origin answered with its fallback page. Nothing of the page is quoted.
 */
function pageInsteadOfFile(response: Response, text: string): string | null {
  const mediaType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const html = mediaType === 'text/html' || /^<(?:!doctype|html)[\s>]/i.test(text.trimStart());
  if (!html) return null;
  return (
    `answered ${response.status} with an HTML page, not the descriptor (is ${REMOTE_DESCRIPTOR_FILE} missing from the ` +
    "folder, answered by the origin's fallback page?)"
  );
}
