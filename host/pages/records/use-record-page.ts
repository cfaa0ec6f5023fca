import { ERROR_MESSAGES, type RecordPayload, type ResourceDefinition } from '../../../shared';
import { ApiError } from '../../core';
import { reloadFailed, useApi } from '../../hooks/use-api';

export type RecordPageData =
  | { status: 'loading' }
  | { status: 'error'; error: ApiError; retry(): void }
  | { status: 'ready'; definition: ResourceDefinition; payload: RecordPayload; reload(): void };

/** What the record view and edit pages need: the resource's definition and the record with its relations. */
export function useRecordPage(resource: string, id: string): RecordPageData {
  const name = encodeURIComponent(resource);
  const validId = /^\d+$/.test(id);
  const definition = useApi<{ resource: ResourceDefinition }>(`/api/resources/${name}`);
  const record = useApi<RecordPayload>(validId ? `/api/resources/${name}/records/${id}` : null);

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
