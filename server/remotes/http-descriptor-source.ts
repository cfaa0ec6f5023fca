import type { RemoteDescriptor } from '../../shared';
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

  async read(remote: PendingRemote): Promise<DescriptorOutcome> {
    try {
      const response = await fetch(remote.descriptorUrl, {
        signal: AbortSignal.timeout(this.timeoutMs),
        headers: { Accept: 'application/json' },
      });
      if (!response.ok) return { status: 'failing', reason: `${remote.descriptorUrl} answered ${response.status}` };
      // Parsed here, not with response.json(): the checks expect plain objects of this realm.
      const file = parseRemoteDescriptorFile(JSON.parse(await response.text()) as unknown, remote.descriptorUrl);
      if (file.name !== remote.name) {
        return {
          status: 'failing',
          reason: `${remote.descriptorUrl} describes remote "${file.name}", not "${remote.name}"`,
        };
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
          return {
            status: 'failing',
            reason: `${remote.descriptorUrl} gives a devEvents URL with credentials (user:password@), which every visitor would read`,
          };
        }
        descriptor.devEvents = devEvents.href;
      }
      return { status: 'ready', descriptor, props: file.props ?? {} };
    } catch (error) {
      const reason =
        (error as Error).name === 'TimeoutError'
          ? `${remote.descriptorUrl} did not answer within ${this.timeoutMs} ms`
          : `${remote.descriptorUrl}: ${(error as Error).message}`;
      return { status: 'failing', reason };
    }
  }
}
