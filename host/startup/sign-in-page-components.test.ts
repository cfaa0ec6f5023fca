import type { SlotMap } from '../../shared';
import { signInPageComponents, signInSidebarShown } from './sign-in-page-components';

const SLOTS: SlotMap = {
  'header-banner': [{ component: 'MaintenanceNotice', props: {} }],
  'login-before-form': [
    { component: 'LoginNotice', props: {} },
    { component: 'Callout', props: {}, content: 'plain text' },
  ],
  'login-after-form': [
    {
      component: 'Callout',
      props: {},
      content: [
        { component: 'WelcomeCard', props: {} },
        { component: 'Callout', props: {}, content: { component: 'SsoButtons', props: {} } },
      ],
    },
  ],
  'login-sidebar': [{ component: 'LoginSidebarPromo', props: {} }],
  'global-after-content': [{ component: 'FooterLinks', props: {} }],
  // Never in a public payload; listed to show a protected location is not the sign-in page's.
  'dashboard-before-cards': [{ component: 'ShortcutLinks', props: {} }],
};

describe('signInPageComponents', () => {
  it('names every component of the public locations once, nested content included, the sidebar when wide', () => {
    expect(signInPageComponents(SLOTS, true).sort()).toEqual(
      [
        'Callout',
        'FooterLinks',
        'LoginNotice',
        'LoginSidebarPromo',
        'MaintenanceNotice',
        'SsoButtons',
        'WelcomeCard',
      ].sort(),
    );
  });

  it('leaves the sidebar out below desktop widths, as the sign-in page does', () => {
    expect(signInPageComponents(SLOTS, false)).not.toContain('LoginSidebarPromo');
    expect(signInPageComponents({}, true)).toEqual([]);
  });
});

describe('signInSidebarShown', () => {
  afterEach(() => {
    Reflect.deleteProperty(window, 'matchMedia');
  });

  it('follows the sign-in page media query, and is false without matchMedia', () => {
    expect(signInSidebarShown()).toBe(false);
    const queries: string[] = [];
    Object.defineProperty(window, 'matchMedia', {
      configurable: true,
      value: (query: string) => {
        queries.push(query);
        return { matches: true };
      },
    });
    expect(signInSidebarShown()).toBe(true);
    expect(queries).toEqual(['(min-width: 1024px)']);
  });
});
