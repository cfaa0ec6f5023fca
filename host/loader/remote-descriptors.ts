import type { RemoteDescriptor, RemotesPayload } from '../../shared';
import type { ApiClient } from './api-client';

/** The usable remote descriptors of a payload (GET /api/remotes, boot data), and what was dropped (for one warning). */
export interface ParsedRemoteDescriptors {
  remotes: RemoteDescriptor[];
  problems: string[];
  /** Whether the server lets failed slots show details; false unless it says so. */
  showSlotDetails: boolean;
}

function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '');
}

/** The usable remotes of a `GET /api/remotes` payload; malformed entries are dropped and named in `problems`. */
export function parseRemotesPayload(value: unknown): ParsedRemoteDescriptors {
  const problems: string[] = [];
  const list = (value as Partial<RemotesPayload> | null)?.remotes;
  const showSlotDetails = (value as Partial<RemotesPayload> | null)?.showSlotDetails === true;
  if (!Array.isArray(list)) return { remotes: [], problems: ['`remotes` is not a list'], showSlotDetails };
  const remotes: RemoteDescriptor[] = [];
  const names = new Set<string>();
  list.forEach((raw: unknown, index) => {
    const item = raw as Partial<RemoteDescriptor> | null;
    if (
      !item ||
      typeof item.name !== 'string' ||
      item.name === '' ||
      typeof item.entry !== 'string' ||
      item.entry === '' ||
      !isStringList(item.components) ||
      !isStringList(item.formComponents)
    ) {
      problems.push(`remotes[${index}] is not a remote descriptor`);
      return;
    }
    if (names.has(item.name)) {
      problems.push(`remote "${item.name}" is listed twice; the first one is kept`);
      return;
    }
    names.add(item.name);
    remotes.push({
      name: item.name,
      entry: item.entry,
      components: [...item.components],
      formComponents: item.formComponents.filter((name) => item.components?.includes(name)),
      ...(typeof item.releaseTag === 'string' && item.releaseTag.length <= 200 ? { releaseTag: item.releaseTag } : {}),
      ...(typeof item.previewedVersion === 'string' && item.previewedVersion.length <= 200
        ? { previewedVersion: item.previewedVersion }
        : {}),
      ...(typeof item.devEvents === 'string' && /^https?:\/\//.test(item.devEvents)
        ? { devEvents: item.devEvents }
        : {}),
    });
  });
  return { remotes, problems, showSlotDetails };
}

/** A release this session previews: the page says so, with a way to stop it. */
export interface PreviewedRelease {
  remote: string;
  version: string;
}

/** The releases the remotes served to this session are previews of (RemoteDescriptor.previewedVersion). */
export function previewedReleasesOf(remotes: readonly RemoteDescriptor[]): PreviewedRelease[] {
  return remotes.flatMap((remote) =>
    remote.previewedVersion === undefined ? [] : [{ remote: remote.name, version: remote.previewedVersion }],
  );
}

/**
 * GET /api/remotes, bounded by a timeout: the shell renders without remote components rather than wait for a slow
 * answer.
 */
export async function fetchRemoteDescriptors(client: ApiClient, timeoutMs = 5000): Promise<ParsedRemoteDescriptors> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  try {
    return parseRemotesPayload(await client.get<unknown>('/api/remotes', controller.signal));
  } finally {
    clearTimeout(timer);
  }
}
