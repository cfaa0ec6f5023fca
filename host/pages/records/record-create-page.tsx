import { useCallback } from 'react';
import { useNavigate, useParams } from 'react-router-dom';
import { SlotLocation, type RecordPayload } from '../../../shared';
import { AppSlotRenderer } from '../../core';
import { ReadOnlyRoleNotice, useMayChangeRecords } from '../../forms/read-only-role';
import { ResourceForm } from '../../forms/resource-form';
import { Breadcrumbs } from '../../layout/breadcrumbs';
import { PageHeading } from '../../layout/page-heading';
import { PageStatus } from '../common/page-status';
import { recordNouns } from './describe-record-page';
import { CREATED_STATE } from './record-view-page';
import { useResourceDefinition } from '../../hooks/resource-definitions';

/**
 * A new record: the resource's form, empty, its form slots with `formContext.mode` 'create'; resource-before-form
 * and resource-after-form around it as on the edit page. resource-edit-actions is not rendered: its context is a
 * record, and there is none yet. Creating opens the new record's page. Where the resource does not allow creating,
 * the page says so.
 */
export function RecordCreatePage() {
  const { resource = '' } = useParams();
  const navigate = useNavigate();
  const base = `/resources/${encodeURIComponent(resource)}`;
  const definition = useResourceDefinition(resource);
  const onSaved = useCallback(
    // The record's page says it was created (CreatedNotice): the form that said so is gone with this page.
    (payload: RecordPayload) => void navigate(`${base}/${payload.record.id}`, { replace: true, state: CREATED_STATE }),
    [navigate, base],
  );

  const mayChange = useMayChangeRecords();
  if (definition.status !== 'ready') {
    return definition.status === 'error' ? (
      <PageStatus status="error" error={definition.error} retry={definition.reload} />
    ) : (
      <PageStatus status="loading" />
    );
  }
  const { label, canCreate } = definition.data.resource;
  const { one } = recordNouns(definition.data.resource);
  return (
    <div className="page">
      <Breadcrumbs trail={[{ label: 'Dashboard', to: '/' }, { label, to: base }, { label: 'New' }]} />
      <PageHeading title={`New ${one} · ${label}`}>New {one}</PageHeading>
      {canCreate && !mayChange ? (
        <ReadOnlyRoleNotice />
      ) : canCreate ? (
        <>
          <AppSlotRenderer location={SlotLocation.RESOURCE_BEFORE_FORM} />
          <ResourceForm definition={definition.data.resource} onSaved={onSaved} />
          <AppSlotRenderer location={SlotLocation.RESOURCE_AFTER_FORM} />
        </>
      ) : (
        <p className="notice notice--warning">{label} records cannot be created here.</p>
      )}
    </div>
  );
}
