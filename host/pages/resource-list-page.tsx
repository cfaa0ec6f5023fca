import { Link, useParams } from 'react-router-dom';
import type { RecordListPayload, ResourcePayload } from '../../shared';
import { useApi } from '../app/use-api';
import { Breadcrumbs } from '../layout/breadcrumbs';
import { PageHeading } from '../layout/page-heading';
import { PageError } from './page-error';

/** The records of a resource in the current tenant. */
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

  const { label } = definition.data.resource;
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
                <th scope="col">Title</th>
                <th scope="col">Label</th>
                <th scope="col">Group</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((record) => (
                <tr key={record.id} data-record-id={record.id}>
                  <td>
                    <Link to={`/resources/${name}/${record.id}`}>{record.title}</Link>
                  </td>
                  <td>{record.label}</td>
                  <td>{record.group ?? <span className="muted">—</span>}</td>
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
