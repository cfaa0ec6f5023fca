import { useEffect, useState } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import {
  SlotLocation,
  VIEWER_CANNOT_CHANGE_RECORDS,
  type FieldItem,
  type ResourceActionContext,
} from '../../../shared';
import { AppSlotRenderer } from '../../core';
import { Breadcrumbs } from '../../layout/breadcrumbs';
import { DeleteRecordButton } from './delete-record-button';
import type { DeletedRecord } from './deleted-record-notice';
import { PageHeading } from '../../layout/page-heading';
import { FieldValue } from './field-value';
import { listReturnAddress, useListOwner } from '../../hooks/list-return-address';
import { PageStatus } from '../common/page-status';
import { useRecordPage } from './use-record-page';
import { useMayChangeRecords } from '../../forms/read-only-role';

/** Said above the fields when a viewer opened the record's edit address and got its read view instead. */
export const EDIT_REFUSED_TO_VIEWER = `This is the record's read view rather than its edit page. ${VIEWER_CANNOT_CHANGE_RECORDS}`;

/**
 * A record: breadcrumbs with resource-page-actions at their right (context `{ resource, resourceId, record }`),
 * its fields, then resource-before-relations, the relations, resource-after-relations. `editRefused`: shown at an
 * edit address to someone who may not edit (RecordEditPage), with a line saying why.
 */
export function RecordViewPage({ editRefused = false }: { editRefused?: boolean } = {}) {
  const { resource = '', id = '' } = useParams();
  const data = useRecordPage(resource, id, 'keep');
  const owner = useListOwner(resource);
  const navigate = useNavigate();
  const mayChange = useMayChangeRecords();

  if (data.status !== 'ready') return <PageStatus {...data} />;

  const { definition, payload } = data;
  const { record, relations } = payload;
  const context: ResourceActionContext = { resource: definition.name, resourceId: record.id, record };
  const fields = definition.fields.filter((item): item is FieldItem => item.type === 'field');
  const base = `/resources/${encodeURIComponent(definition.name)}`;

  return (
    <div className="page">
      <Breadcrumbs
        trail={[
          { label: 'Dashboard', to: '/' },
          { label: definition.label, to: owner ? listReturnAddress(owner) : base },
          { label: record.title },
        ]}
        actions={
          <>
            <AppSlotRenderer location={SlotLocation.RESOURCE_PAGE_ACTIONS} context={context} className="actions" />
            {mayChange && (
              <Link to={`${base}/${record.id}/edit`} className="button button--primary button--small">
                Edit
              </Link>
            )}
            <DeleteRecordButton
              definition={definition}
              record={record}
              small
              onDeleted={({ deleted }) => {
                // The list offers the undo: the record's page has nothing left to show. Back to the list as it was
                // left (its filters, sort and page), as the breadcrumb leads.
                const state: { deleted: DeletedRecord } = { deleted: { resource: definition.name, record: deleted } };
                void navigate(owner ? listReturnAddress(owner) : base, { state });
              }}
              // Read again: the page then says it was deleted, and where to restore it from.
              onGone={data.reload}
            />
          </>
        }
      />
      <PageHeading title={`${record.title} · ${definition.label}`}>
        <bdi>{record.title}</bdi>
      </PageHeading>
      <CreatedNotice />
      {editRefused && (
        <p className="notice notice--info" data-edit-refused="">
          {EDIT_REFUSED_TO_VIEWER}
        </p>
      )}
      <section className="card record" aria-label="Fields">
        <dl className="record__fields">
          {fields.map((field) => (
            <div className="record__field" key={field.name} data-field={field.name}>
              <dt>{field.label}</dt>
              <dd>
                <FieldValue
                  field={field}
                  value={record[field.name]}
                  related={relations.find((relation) => relation.name === field.relation)?.records}
                />
              </dd>
            </div>
          ))}
        </dl>
      </section>
      <AppSlotRenderer location={SlotLocation.RESOURCE_BEFORE_RELATIONS} />
      <section className="relations" aria-label="Relations">
        {relations.map((relation) => (
          <div className="card relation" key={relation.name} data-relation={relation.name}>
            <h2 className="card__title">{relation.label}</h2>
            {relation.records.length === 0 ? (
              <p className="muted">None.</p>
            ) : (
              <ul className="relation__list">
                {relation.records.map((related) => (
                  <li key={related.id}>
                    <Link to={`/resources/${encodeURIComponent(relation.resource)}/${related.id}`}>
                      <bdi>{related.title}</bdi>
                    </Link>
                    <span className="muted"> · {related.label}</span>
                  </li>
                ))}
              </ul>
            )}
          </div>
        ))}
      </section>
      <AppSlotRenderer location={SlotLocation.RESOURCE_AFTER_RELATIONS} />
    </div>
  );
}

/** What the New page hands the new record's page: that it was just created there. */
export const CREATED_STATE = { created: true } as const;

/**
 * "Created." on the page of a record just created (CREATED_STATE): the form that would have said it is gone. The
 * words come after the region is there, so that a screen reader announces them (a region mounted with its text
 * often is not), while the focus is on the record's heading; they stay until the page is left.
 */
function CreatedNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const created = (location.state as { created?: unknown } | null)?.created === true;
  const [said, setSaid] = useState(false);
  useEffect(() => {
    if (!created) return;
    setSaid(true);
    // Said once: the history entry forgets it, so a reload or a return to this page does not say it again.
    void navigate(`${location.pathname}${location.search}${location.hash}`, { replace: true, state: null });
  }, [created, navigate, location.pathname, location.search, location.hash]);
  return (
    <p className="form__status" role="status" data-record-created={said || undefined}>
      {said ? 'Created.' : ''}
    </p>
  );
}
