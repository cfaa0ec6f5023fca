import '../../testing/host/router-globals';
import { screen } from '@testing-library/react';
import type { CurrentUser, SlotMap } from '../../shared';
import { createFakeApi } from '../../testing/host/fake-api';
import { renderAppAt } from '../../testing/host/render-app';

const ACME = { id: 'acme', name: 'Acme Corp' };
const GLOBEX = { id: 'globex', name: 'Globex' };

function user(tenants: CurrentUser['tenants']): CurrentUser {
  return { username: 'admin', displayName: 'Demo administrator', tenants, currentTenant: 'acme' };
}

/** The header of the dashboard, once the user's name shows: the tenant switcher's location in it. */
async function tenantLocation(me: CurrentUser, slots: SlotMap): Promise<HTMLElement> {
  const fake = createFakeApi({
    'GET /me': { body: { user: me } },
    'GET /meta': { body: { dashboards: [], modules: [], slots } },
  });
  renderAppAt(fake, '/');
  await screen.findByText('Demo administrator');
  return document.querySelector('[data-slot-location="tenant-switcher"]') as HTMLElement;
}

describe('the header on a phone', () => {
  it('holds the tenant switcher row open for a member of several tenants', async () => {
    // No slot placed there: the host's own switcher fills the row.
    const location = await tenantLocation(user([ACME, GLOBEX]), {});
    expect(location.classList.contains('header__tenant--reserved')).toBe(true);
    expect(location.querySelector('select[name="tenant"]')).not.toBeNull();
  });

  it('holds it open where a slot is placed, whatever the tenants', async () => {
    // The slot's component never arrives here (none is registered): the row is open all the same.
    const location = await tenantLocation(user([ACME]), {
      'tenant-switcher': [{ component: 'TenantSwitcher', props: {} }],
    });
    expect(location.classList.contains('header__tenant--reserved')).toBe(true);
  });

  it('opens no row that nothing would fill', async () => {
    const location = await tenantLocation(user([ACME]), {});
    expect(location.classList.contains('header__tenant--reserved')).toBe(false);
  });
});
