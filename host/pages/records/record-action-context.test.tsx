import '../../../testing/host/router-globals';
import { screen } from '@testing-library/react';
import type { MePayload, ResourceActionSlotProps, ResourceRecord } from '../../../shared';
import { createFakeApi } from '../../../testing/host/fake-api';
import { renderAppAt } from '../../../testing/host/render-app';

/**
 * What the record pages hand to the resource-action slots, checked without a browser: the resource name, the id,
 * and the record as the API returned it (title, label, group, and its other fields).
 */
const ME: MePayload = {
  user: { username: 'admin', displayName: 'Admin', tenants: [{ id: 'acme', name: 'Acme' }], currentTenant: 'acme' },
};
const RECORD: ResourceRecord = {
  id: 7,
  title: 'Launching the spring catalogue',
  label: 'Spring launch',
  group: 'news',
  slug: 'launching-the-spring-catalogue',
};

function ActionProbe(props: ResourceActionSlotProps<{ kind: string }>) {
  return <output data-testid={`probe-${props.kind}`}>{JSON.stringify(props)}</output>;
}

function renderAt(path: string) {
  const api = createFakeApi({
    'GET /me': { body: ME },
    'GET /meta': {
      body: {
        dashboards: [],
        modules: [],
        slots: {
          'resource-page-actions': [{ component: 'ActionProbe', props: { kind: 'view' } }],
          'resource-edit-actions': [{ component: 'ActionProbe', props: { kind: 'edit' } }],
        },
      },
    },
    'GET /api/resources/articles': {
      body: {
        resource: { name: 'articles', label: 'Articles', fields: [], relations: [], listColumns: ['title', 'label'] },
      },
    },
    'GET /api/resources/articles/records/7': { body: { record: RECORD, relations: [] } },
  });
  renderAppAt(api, path, { ActionProbe });
}

describe('the resource-action context the record pages give', () => {
  it.each([
    ['view', '/resources/articles/7'],
    ['edit', '/resources/articles/7/edit'],
  ])('on the %s page: resource, resourceId and the record with title, label and group', async (kind, path) => {
    renderAt(path);
    const probe = await screen.findByTestId(`probe-${kind}`);
    const props = JSON.parse(probe.textContent ?? '{}') as ResourceActionSlotProps<{ kind: string }>;
    expect(props).toEqual({ kind, resource: 'articles', resourceId: 7, record: RECORD });
    expect(props.record.title).toBe('Launching the spring catalogue');
    expect(props.record.label).toBe('Spring launch');
    expect(props.record.group).toBe('news');
    // Each action location renders on its own page only.
    expect(screen.queryByTestId(`probe-${kind === 'view' ? 'edit' : 'view'}`)).toBeNull();
  });
});
