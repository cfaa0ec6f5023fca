import { Link, useParams } from 'react-router-dom';
import type { FieldItem, RecordListPayload, ResourcePayload } from '../../shared';
import { useApi } from '../app/use-api';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { PageHeading } from '../layout/page-heading';
import { FieldValue } from './field-value';
import { PageError } from './page-error';

/** The records of a resource in the current tenant, in the columns its definition lists (the first links). */
export function ResourceListPage() {
  const { resource = '' } = useParams();
  const name = encodeURIComponent(resource);
  const definition = useApi<ResourcePayload>(`/api/resources/${name}`);
  const records = useApi<RecordListPayload>(`/api/resources/${name}/records`);

  if (definition.status === 'error') return <PageError error={definition.error} onRetry={definition.reload} />;
  if (records.status === 'error') return <PageError error={records.error} onRetry={records.reload} />;
  if (definition.status === 'loading' || records.status === 'loading') {
    return (
      <p className="page-status" role="status">
        Loading…
      </p>
    );
  }

  const { label, fields, listColumns } = definition.data.resource;
  const fieldsByName = new Map(
    fields.filter((item): item is FieldItem => item.type === 'field').map((field) => [field.name, field]),
  );
  const columns = listColumns.map((column) => ({ name: column, field: fieldsByName.get(column) }));
  const rows = records.data.records;
  return (
    <div className="page">
      <Breadcrumbs trail={[{ label: 'Dashboard', to: '/' }, { label }]} />
      <PageHeading title={label} />
      {rows.length === 0 ? (
        <p className="empty">No {label.toLowerCase()} in this tenant yet.</p>
      ) : (
        <div className="table-wrap">
          <table className="table">
            <thead>
              <tr>
                {columns.map((column) => (
                  <th scope="col" key={column.name} data-column={column.name}>
                    {column.field?.label ?? column.name}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((record) => (
                <tr key={record.id} data-record-id={record.id}>
                  {columns.map((column, index) => (
                    <td key={column.name}>
                      {index === 0 ? (
                        <Link to={`/resources/${name}/${record.id}`}>
                          {String(record[column.name] ?? '') || `#${record.id}`}
                        </Link>
                      ) : (
                        <FieldValue field={column.field} value={record[column.name]} />
                      )}
                    </td>
                  ))}
                  <td className="table__actions">
                    <Link to={`/resources/${name}/${record.id}/edit`} className="button button--ghost button--small">
                      Edit
                    </Link>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}
