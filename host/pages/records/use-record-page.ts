import { useCallback, useEffect, useState } from 'react';
import { ERROR_MESSAGES, type RecordPayload, type ResourceDefinition } from '../../../shared';
import { ApiError, useSession } from '../../core';
import { reloadFailed, useApi } from '../../hooks/use-api';
import {
  forgetRecordRead,
  keepRecordRead,
  peekRecordRead,
  useResourceDefinition,
} from '../../hooks/resource-definitions';

export type RecordPageData =
  | { status: 'loading' }
  | { status: 'error'; error: ApiError; retry(): void }
  | { status: 'ready'; definition: ResourceDefinition; payload: RecordPayload; reload(): void };

/**
 * What the record view and edit pages need: the resource's definition and the record with its relations. The view
 * page hands the record it read to the edit page opened from it (`handoff`), which then does not ask for it again.
 */
export function useRecordPage(resource: string, id: string, handoff: 'keep' | 'take'): RecordPageData {
  const name = encodeURIComponent(resource);
  const validId = /^\d+$/.test(id);
  const { scope } = useSession();
  const definition = useResourceDefinition(resource);
  const [handed, setHanded] = useState(() =>
    handoff === 'take' && validId ? peekRecordRead(scope, resource, id) : null,
  );
  // Taken once (in an effect, as an initial state may be computed twice): a later visit of the form reads the record.
  useEffect(() => {
    if (handed) forgetRecordRead();
  }, []);
  const fetched = useApi<RecordPayload>(validId && !handed ? `/api/resources/${name}/records/${id}` : null);
  const reload = useCallback(() => {
    setHanded(null);
    fetched.reload();
  }, [fetched.reload]);
  const record = handed ? { status: 'ready' as const, data: handed, error: null, reload } : { ...fetched, reload };
  useEffect(() => {
    if (handoff === 'keep' && record.status === 'ready') keepRecordRead(scope, resource, record.data);
  }, [handoff, scope, resource, record.data]);

  const retry = reloadFailed(definition, record);
  if (definition.status === 'error') return { status: 'error', error: definition.error, retry };
  if (record.status === 'error') return { status: 'error', error: record.error, retry };
  if (!validId) {
    return {
      status: 'error',
      error: new ApiError(404, 'not_found', ERROR_MESSAGES.notFound),
      retry: () => undefined,
    };
  }
  if (definition.status === 'loading' || record.status === 'loading') return { status: 'loading' };
  return { status: 'ready', definition: definition.data.resource, payload: record.data, reload: record.reload };
}
