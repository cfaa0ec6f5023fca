import { useState } from 'react';
import type { RecordPayload } from '../../shared';
import { ApiError, useApiClient, useSession } from '../core';

export type RestorePhase =
  | { kind: 'deleted' }
  | { kind: 'restoring' }
  | { kind: 'restored' }
  | { kind: 'failed'; message: string };

/**
 * Restoring one deleted record with its id (`POST .../records/:id/restore`), as the undo of a delete and a form whose
 * record was deleted meanwhile offer it: a second press while it runs is ignored, an ended session is expired (the
 * page asks to sign in again), a record restored meanwhile elsewhere counts as restored, and a refusal keeps the
 * server's words (a related record gone, the day passed).
 */
export function useRecordRestore(
  resource: string,
  id: number,
  onRestored: () => void,
): { phase: RestorePhase; restore(): Promise<void> } {
  const client = useApiClient();
  const { expire } = useSession();
  const [phase, setPhase] = useState<RestorePhase>({ kind: 'deleted' });
  const restore = async () => {
    if (phase.kind === 'restoring') return;
    setPhase({ kind: 'restoring' });
    try {
      await client.post<RecordPayload>(`/api/resources/${encodeURIComponent(resource)}/records/${id}/restore`);
      setPhase({ kind: 'restored' });
      onRestored();
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) {
        expire();
        return;
      }
      // Not restorable any more: restored meanwhile elsewhere is as good as restored here (its day over is not).
      if (error instanceof ApiError && error.status === 404) {
        const back = await client
          .get<RecordPayload>(`/api/resources/${encodeURIComponent(resource)}/records/${id}`)
          .then(() => true)
          .catch(() => false);
        if (back) {
          setPhase({ kind: 'restored' });
          onRestored();
          return;
        }
      }
      setPhase({ kind: 'failed', message: error instanceof ApiError ? error.message : 'Could not restore.' });
    }
  };
  return { phase, restore };
}
