import type { RemoteDescriptor } from '../../shared';
import { outgoingTraceHeaders } from '../observability/request-trace';
import type { TraceContext } from '../observability/trace-context';
import type { DescriptorOutcome, DescriptorSource } from './descriptor-source';
import { parseRemoteDescriptorFile } from './remote-names';
import type { PendingRemote } from './remotes-config';

export const DEFAULT_DESCRIPTOR_TIMEOUT_MS = 3000;

export interface HttpDescriptorSourceOptions {
  /** How long one descriptor request may take; a remote that does not answer in time is retried later. */
  timeoutMs?: number;
  /** Pass a kit dev server's `devEvents` on to the host (development servers only: it makes pages reload). */
  passDevEvents?: boolean;
}

/**
 * Reads a kit-built remote's descriptor file (`slots-remote.json`, beside its manifest) from the remote's origin,
 * each request bounded by the timeout. Unreachable, timed out, an error status, invalid JSON or a file naming
 * another remote: a failing outcome with the reason, for the log.
 */
export class HttpDescriptorSource implements DescriptorSource {
  private readonly timeoutMs: number;

  constructor(private readonly options: HttpDescriptorSourceOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? DEFAULT_DESCRIPTOR_TIMEOUT_MS;
  }

  async read(remote: PendingRemote, trace?: TraceContext): Promise<DescriptorOutcome> {
    try {
      const response = await fetch(remote.descriptorUrl, {
        signal: AbortSignal.timeout(this.timeoutMs),
        // The trace goes along (W3C traceparent), so the remote's logs can be matched to ours.
        headers: { Accept: 'application/json', ...outgoingTraceHeaders(trace) },
      });
      if (!response.ok) return badAnswer(`${remote.descriptorUrl} answered ${response.status}`);
      // Parsed here, not with response.json(): the checks expect plain objects of this realm.
      const file = parseRemoteDescriptorFile(JSON.parse(await response.text()) as unknown, remote.descriptorUrl);
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
      return { status: 'ready', descriptor, props: file.props ?? {} };
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

function badAnswer(reason: string): DescriptorOutcome {
  return { status: 'failing', failure: 'bad-answer', reason };
}

/** fetch's own message is only "fetch failed"; the cause says what happened (`connect ECONNREFUSED 127.0.0.1:1`). */
function connectionFailure(error: Error): string {
  const { cause } = error as Error & { cause?: { message?: unknown } };
  return typeof cause?.message === 'string' && cause.message !== '' ? cause.message : error.message;
}
