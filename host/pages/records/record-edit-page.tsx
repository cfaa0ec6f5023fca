import { useState } from 'react';
import { Link, useParams } from 'react-router-dom';
import { SlotLocation, type RecordPayload, type ResourceActionContext, type ResourceRecord } from '../../../shared';
import { AppSlotRenderer } from '../../core';
import { ResourceForm } from '../../forms/resource-form';
import { Breadcrumbs } from '../../layout/breadcrumbs';
import { PageHeading } from '../../layout/page-heading';
import { listReturnAddress, useListOwner } from '../../hooks/list-return-address';
import { PageStatus } from '../common/page-status';
import { useRecordPage } from './use-record-page';
import { useMayChangeRecords } from '../../forms/read-only-role';
import { RecordViewPage } from './record-view-page';

/**
 * A record's edit address: its form for those who may change records; for a viewer, the record's read view with a
 * line saying why (a form of disabled fields titled "Edit" looked editable, its reason far below).
 */
export function RecordEditPage() {
  const mayChange = useMayChangeRecords();
  return mayChange ? <RecordEditForm /> : <RecordViewPage editRefused />;
}

/**
 * Editing a record: breadcrumbs with resource-edit-actions (same context as the view page's actions),
 * resource-before-form, the form, resource-after-form.
 */
function RecordEditForm() {
  const { resource = '', id = '' } = useParams();
  const data = useRecordPage(resource, id, 'take');
  const owner = useListOwner(resource);
  const [saved, setSaved] = useState<RecordPayload | null>(null);
  // The record as the server last said it is stored: after a save, or after a save refused for a change made meanwhile.
  const [stored, setStored] = useState<ResourceRecord | null>(null);

  if (data.status !== 'ready') return <PageStatus {...data} />;

  const { definition } = data;
  const record = stored ?? data.payload.record;
  const context: ResourceActionContext = { resource: definition.name, resourceId: record.id, record };
  const base = `/resources/${encodeURIComponent(definition.name)}`;

  return (
    <div className="page">
      <Breadcrumbs
        trail={[
          { label: 'Dashboard', to: '/' },
          { label: definition.label, to: owner ? listReturnAddress(owner) : base },
          { label: record.title, to: `${base}/${record.id}` },
          { label: 'Edit' },
        ]}
        actions={
          <>
            <AppSlotRenderer location={SlotLocation.RESOURCE_EDIT_ACTIONS} context={context} className="actions" />
            <Link to={`${base}/${record.id}`} className="button button--secondary button--small">
              View
            </Link>
          </>
        }
      />
      <PageHeading title={`Edit ${record.title} · ${definition.label}`}>
        Edit <bdi>{record.title}</bdi>
      </PageHeading>
      <AppSlotRenderer location={SlotLocation.RESOURCE_BEFORE_FORM} />
      <ResourceForm
        definition={definition}
        record={data.payload.record}
        relations={(saved ?? data.payload).relations}
        onSaved={(payload) => {
          setSaved(payload);
          setStored(payload.record);
        }}
        onStored={setStored}
      />
      <AppSlotRenderer location={SlotLocation.RESOURCE_AFTER_FORM} />
    </div>
  );
}
