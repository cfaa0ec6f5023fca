import '../../testing/host/router-globals';
import { act, fireEvent, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import type { CurrentUser, MePayload, ResourceDefinition } from '../../shared';
import { AppProviders } from './host-app';
import { APP_ROUTES } from './app-routes';
import { createSlotStatus, ComponentRegistry } from '../core';
import { readDraft } from '../forms/record-draft';
import { SessionStore } from '../loader/session-store';
import { SlotSource } from '../loader/slot-source';
import { articlesPage } from '../../testing/host/articles-fixture';
import { createFakeApi, type FakeApi } from '../../testing/host/fake-api';
import { fakeTabWindow } from '../../testing/host/fake-broadcast-channel';
import { renderWithSlotBoundaries } from '../../testing/host/render-slots';
import { sessionChangedMessage } from '../layout/session-changed-notice';

const TENANTS = [
  { id: 'acme', name: 'Acme Corp' },
  { id: 'globex', name: 'Globex' },
];
const admin = (tenant: string): CurrentUser => ({
  username: 'admin',
  displayName: 'Admin',
  tenants: TENANTS,
  currentTenant: tenant,
});

describe('sessionChangedMessage', () => {
  it('says which tenant the page works in now, and where unsaved changes were kept', () => {
    expect(sessionChangedMessage(admin('acme'), admin('globex'), null)).toBe(
      'Your session now works in Globex: it was switched from Acme Corp in another tab.',
    );
    expect(sessionChangedMessage(admin('acme'), admin('globex'), 'record')).toBe(
      'Your session now works in Globex: it was switched from Acme Corp in another tab. Your unsaved changes were ' +
        'kept in this tab: switch back to Acme Corp and open the same form again to save them.',
    );
    // The placements are the same in every tenant: the editor puts its kept changes back at once.
    expect(sessionChangedMessage(admin('acme'), admin('globex'), 'placements')).toBe(
      'Your session now works in Globex: it was switched from Acme Corp in another tab. Your unsaved changes to the ' +
        'placements were kept in this tab: the editor shows them again.',
    );
  });

  it('says that the account left the tenant the page showed, when it is not one of theirs any more', () => {
    const removed: CurrentUser = { ...admin('globex'), tenants: [TENANTS[1]!] };
    expect(sessionChangedMessage(admin('acme'), removed, null)).toBe(
      'Your account no longer belongs to Acme Corp: your session now works in Globex.',
    );
    expect(sessionChangedMessage(admin('acme'), removed, 'record')).toBe(
      'Your account no longer belongs to Acme Corp: your session now works in Globex. Your unsaved changes were kept ' +
        'in this tab, for when your account works in Acme Corp again.',
    );
  });

  it('says who signed in, and that the previous user’s unsaved changes were not kept for them', () => {
    const editor: CurrentUser = { ...admin('acme'), username: 'editor', displayName: 'Edith Editor' };
    expect(sessionChangedMessage(admin('acme'), editor, 'placements')).toBe(
      'Edith Editor signed in in another tab: this tab is theirs now. The unsaved changes of Admin on this page were ' +
        'discarded.',
    );
  });
});

const ARTICLES: ResourceDefinition = {
  name: 'articles',
  label: 'Articles',
  relations: [],
  listColumns: ['title'],
  sortableColumns: ['title'],
  searchableColumns: ['title'],
  filters: [],
  canCreate: true,
  canDelete: true,
  fields: [{ type: 'field', name: 'title', label: 'Title', input: 'text', required: true }],
};

/** A tab's client on the one session of the browser, in `tenant.current`. */
function tabApi(tenant: { current: string }): FakeApi {
  const me = (): MePayload => ({ user: admin(tenant.current) });
  return createFakeApi({
    'GET /me': () => ({ body: me() }),
    'GET /meta': { body: { dashboards: [], modules: [], slots: {} } },
    'POST /tenant': (request) => {
      tenant.current = (request.body as { tenant: string }).tenant;
      return { body: me() };
    },
    'GET /api/resources/articles': { body: { resource: ARTICLES } },
    'GET /api/resources/articles/records/1': { body: { record: { id: 1, title: 'Launch plan' }, relations: [] } },
    'GET /api/resources/articles/records': {
      body: articlesPage([{ id: 2, label: 'Globex roadmap', title: 'Globex roadmap' }]),
    },
  });
}

describe('a tenant switch in another tab', () => {
  it('moves this tab to the new tenant at once, keeps its unsaved edits as a draft of the old one, and says so', async () => {
    const tenant = { current: 'acme' };
    const api = tabApi(tenant);
    const source = new SlotSource({ client: api.client, pathname: '/resources/articles/1/edit' });
    const stopA = source.session.listen(fakeTabWindow());
    const other = new SessionStore(tabApi(tenant).client);
    const stopB = other.listen(fakeTabWindow());
    const router = createMemoryRouter(APP_ROUTES, { initialEntries: ['/resources/articles/1/edit'] });
    try {
      renderWithSlotBoundaries(
        <AppProviders
          client={api.client}
          runtime={{
            slotRegistry: new ComponentRegistry('SlotComponentRegistry'),
            globalRegistry: new ComponentRegistry('GlobalComponentRegistry'),
            ...createSlotStatus({ log: () => undefined }),
          }}
          source={source}
        >
          <RouterProvider router={router} />
        </AppProviders>,
      );
      const title = await screen.findByRole('textbox', { name: /Title/ });
      fireEvent.change(title, { target: { value: 'Launch plan, revised' } });
      await act(() => other.refresh());

      await act(() => other.switchTenant('globex'));
      await screen.findByText(/Your session now works in Globex: it was switched from Acme Corp in another tab\./);
      expect(screen.getByText(/Your unsaved changes were kept in this tab/).closest('[role="status"]')).not.toBeNull();
      // The record belongs to acme: the page is the articles list of globex now, and the header says globex.
      expect(router.state.location.pathname).toBe('/resources/articles');
      // The list read for the new tenant, before the test ends.
      await screen.findByRole('link', { name: 'Globex roadmap' });
      expect((screen.getByLabelText('Tenant') as HTMLSelectElement).value).toBe('globex');
      expect(readDraft({ username: 'admin', tenant: 'acme', resource: 'articles', id: 1 })?.changes).toEqual({
        title: 'Launch plan, revised',
      });

      fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
      expect(screen.queryByText(/Your session now works in Globex/)).toBeNull();
    } finally {
      stopA();
      stopB();
      window.sessionStorage.clear();
    }
  });
});
