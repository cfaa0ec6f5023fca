import { pageComponents, SIGN_IN_SIDEBAR_MEDIA, signedInPageLocations } from './page-slots';
import { SlotLocation } from './slot-location';
import type { SlotMap } from './wire';

const SLOTS: SlotMap = {
  'header-banner': [{ component: 'MaintenanceNotice', props: {} }],
  'global-before-content': [{ component: 'SystemStatus', props: {} }],
  'global-after-content': [{ component: 'FooterLinks', props: {} }],
  'login-before-form': [
    { component: 'LoginNotice', props: {} },
    { component: 'Callout', props: {}, content: 'text' },
  ],
  'login-after-form': [{ component: 'Callout', props: {}, content: { component: 'AccountHelp', props: {} } }],
  'login-sidebar': [
    { component: 'LoginSidebarPromo', props: {} },
    { component: 'Callout', props: {} },
  ],
  // Protected locations never reach GET /slots; were they given, they are still never read.
  'dashboard-before-cards': [{ component: 'ShortcutLinks', props: {} }],
  'tenant-switcher': [{ component: 'TenantSwitcher', props: {} }],
};

describe('pageComponents', () => {
  it('on the sign-in page: the layout and sign-in locations, nested content included, the sidebar under its query', () => {
    expect([...pageComponents('/login', SLOTS)]).toEqual([
      ['MaintenanceNotice', null],
      ['SystemStatus', null],
      ['FooterLinks', null],
      ['LoginNotice', null],
      ['Callout', null],
      ['AccountHelp', null],
      ['LoginSidebarPromo', SIGN_IN_SIDEBAR_MEDIA],
    ]);
  });

  it('elsewhere: the layout locations only', () => {
    for (const path of ['/', '/resources/articles', '/resources/articles/1/edit']) {
      expect([...pageComponents(path, SLOTS).keys()]).toEqual(['MaintenanceNotice', 'SystemStatus', 'FooterLinks']);
    }
  });

  it('never reads a protected location', () => {
    const names = new Set([...pageComponents('/login', SLOTS).keys(), ...pageComponents('/', SLOTS).keys()]);
    for (const location of SlotLocation.cases().filter((candidate) => !candidate.isPublic())) {
      for (const entry of SLOTS[location.value] ?? []) expect(names.has(entry.component)).toBe(false);
    }
  });

  it('tolerates missing and malformed locations', () => {
    expect(pageComponents('/login', {}).size).toBe(0);
    expect(pageComponents('/login', { 'header-banner': 'nope' } as unknown as SlotMap).size).toBe(0);
  });
});

describe('signedInPageLocations', () => {
  it("adds the tenant switcher and each page's own protected locations to the layout's", () => {
    const values = (path: string) => signedInPageLocations(path).map((location) => location.value);
    const layout = ['header-banner', 'global-before-content', 'global-after-content', 'tenant-switcher'];
    expect(values('/')).toEqual([...layout, 'dashboard-before-cards', 'dashboard-after-cards']);
    expect(values('/resources/articles/4')).toEqual([
      ...layout,
      'resource-page-actions',
      'resource-before-relations',
      'resource-after-relations',
    ]);
    expect(values('/resources/articles/4/edit')).toEqual([
      ...layout,
      'resource-edit-actions',
      'resource-before-form',
      'resource-after-form',
    ]);
    expect(values('/resources/articles')).toEqual(layout);
    expect(values('/resources/articles/deleted')).toEqual(layout);
  });

  it('reads protected locations for a signed-in visitor only', () => {
    expect([...pageComponents('/', SLOTS, 'signed-in').keys()]).toEqual([
      'MaintenanceNotice',
      'SystemStatus',
      'FooterLinks',
      'TenantSwitcher',
      'ShortcutLinks',
    ]);
    expect([...pageComponents('/', SLOTS).keys()]).not.toContain('TenantSwitcher');
  });
});
