import { useCallback, useState } from 'react';
import type { RecordPayload } from '../../shared';
import { ApiError, useApiClient, useSession } from '../core';

export type RestorePhase =
  | { kind: 'deleted' }
  | { kind: 'restoring' }
  | { kind: 'restored' }
  | { kind: 'failed'; message: string };

/** What one restore ended in. */
export type RestoreResult =
  /** The record is back: restored by this request, or (`elsewhere`) meanwhile by another tab or person. */
  | { kind: 'restored'; elsewhere: boolean }
  /** The session had ended: it is expired, and the page asks to sign in again. */
  | { kind: 'session-ended' }
  /** Refused, in the server's words; `gone` when the record cannot be restored any more (its day is over). */
  | { kind: 'refused'; message: string; gone: boolean };

/**
 * Restoring a deleted record with its id (`POST .../records/:id/restore`), the one way every page does it: an ended
 * session is expired, and a record no longer restorable (404) is asked for, since restored meanwhile elsewhere is as
 * good as restored here (its day over is not). What to show of the result is the caller's.
 */
export function useRestoreRecord(): (resource: string, id: number) => Promise<RestoreResult> {
  const client = useApiClient();
  const { expire } = useSession();
  return useCallback(
    async (resource, id) => {
      const address = `/api/resources/${encodeURIComponent(resource)}/records/${id}`;
      try {
        await client.post<RecordPayload>(`${address}/restore`);
        return { kind: 'restored', elsewhere: false };
      } catch (error) {
        if (error instanceof ApiError && error.status === 401) {
          expire();
          return { kind: 'session-ended' };
        }
        if (error instanceof ApiError && error.status === 404) {
          const back = await client
            .get<RecordPayload>(address)
            .then(() => true)
            .catch(() => false);
          if (back) return { kind: 'restored', elsewhere: true };
          return { kind: 'refused', message: error.message, gone: true };
        }
        return {
          kind: 'refused',
          message: error instanceof ApiError ? error.message : 'Could not restore.',
          gone: false,
        };
      }
    },
    [client, expire],
  );
}

/**
 * Restoring one deleted record, as the undo of a delete and a form whose record was deleted meanwhile offer it: a
 * second press while it runs is ignored, and a refusal keeps the server's words (a related record gone, the day
 * passed). After an ended session it stays restoring: the page is leaving for the sign-in.
 */
export function useRecordRestore(
  resource: string,
  id: number,
  onRestored: () => void,
): { phase: RestorePhase; restore(): Promise<void> } {
  const restoreRecord = useRestoreRecord();
  const [phase, setPhase] = useState<RestorePhase>({ kind: 'deleted' });
  const restore = async () => {
    if (phase.kind === 'restoring') return;
    setPhase({ kind: 'restoring' });
    const result = await restoreRecord(resource, id);
    if (result.kind === 'session-ended') return;
    if (result.kind === 'refused') {
      setPhase({ kind: 'failed', message: result.message });
      return;
    }
    setPhase({ kind: 'restored' });
    onRestored();
  };
  return { phase, restore };
}
