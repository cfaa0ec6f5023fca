import type { ResourceRecord } from '../../shared';
import { isRecordId } from './record-id';
import type { RecordSource } from './record-source';
import type { RegisteredResource } from './registered-resource';

/**
 * For each list column of `resource` that is a relation field, the related records `records` (a page) point at,
 * each once: what `GET .../records` gives as `related`, so a column names the author rather than an id. At most one
 * read per distinct id of the page, whatever the size of the table; undefined when no column is a relation.
 */
export async function listRelatedRecords(
  records: RecordSource,
  tenant: string,
  resource: RegisteredResource,
  page: readonly ResourceRecord[],
): Promise<Record<string, ResourceRecord[]> | undefined> {
  const columns = resource.definition.listColumns.flatMap((column) => {
    const field = resource.fields.get(column);
    return field?.input === 'relation' && field.resource !== undefined
      ? [{ name: field.name, resource: field.resource }]
      : [];
  });
  if (columns.length === 0) return undefined;
  const related: Record<string, ResourceRecord[]> = {};
  await Promise.all(
    columns.map(async (column) => {
      const ids = [...new Set(page.map((record) => record[column.name]).filter(isRecordId))];
      const found = await Promise.all(ids.map((id) => records.get(tenant, column.resource, id)));
      related[column.name] = found.filter((record): record is ResourceRecord => record !== undefined);
    }),
  );
  return related;
}
