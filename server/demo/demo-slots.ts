import { Slot, SlotLocation } from '../../shared';
import type { SlotRegistrationMap } from '../slots/slot-registry';

/**
 * The demo's slot registrations : every location has at least one slot. Components come
 * from the two demo remotes, `team_marketing` (sign-in page and global chrome) and `team_records` (signed-in pages).
 * A host application registers its own the same way: `app.registerSlots({ [location]: Slot | Slot[] })`.
 */
/**
 * What the sign-in page tells demo visitors about the password of `admin`. The same whatever this start was given:
 * the password is the one the database was made with, at a start this one cannot know of (DEMO_PASSWORD set now
 * says nothing of a database made before without it, nor the reverse).
 */
export const DEMO_SIGN_IN_HINT =
  'Demo: sign in as admin with the password the database was made with: DEMO_PASSWORD if it was set at the ' +
  'first start, else the one the server printed then.';

export function demoSlots(): SlotRegistrationMap {
  return {
    [SlotLocation.HEADER_BANNER.value]: Slot.make('MaintenanceNotice', {
      message: 'Planned maintenance on Sunday from 02:00 to 03:00 UTC: sign-in may be briefly unavailable.',
      severity: 'info',
    }),
    [SlotLocation.GLOBAL_BEFORE_CONTENT.value]: Slot.make('SystemStatus', {
      status: 'operational',
      text: 'All systems operational.',
    }),
    [SlotLocation.GLOBAL_AFTER_CONTENT.value]: Slot.make('FooterLinks', {
      links: [
        // The host's own status page: staff stay in the app (GET /healthz itself is JSON for machines).
        { label: 'Service status', href: '/status' },
        { label: 'Privacy', href: 'https://example.com/privacy' },
        { label: 'Help', href: 'https://example.com/help' },
      ],
    }),
    // A list: several slots at one location render in this order.
    [SlotLocation.LOGIN_BEFORE_FORM.value]: [
      Slot.make('LoginNotice', { title: 'Welcome back', text: 'Sign in with your staff account to manage content.' }),
      Slot.make('Callout', { tone: 'info' }, DEMO_SIGN_IN_HINT),
    ],
    [SlotLocation.LOGIN_AFTER_FORM.value]: Slot.make('AccountHelp', {
      topics: [
        { question: 'Forgot your password?', answer: 'Ask an administrator to reset it.' },
        { question: 'No account yet?', answer: 'An administrator adds staff accounts.' },
      ],
    }),
    [SlotLocation.LOGIN_SIDEBAR.value]: Slot.make('LoginSidebarPromo', {
      title: 'New: editorial calendar',
      body: 'Plan articles across teams and see what ships this week.',
      linkLabel: 'Read the announcement',
      href: 'https://example.com/blog/editorial-calendar',
    }),
    [SlotLocation.TENANT_SWITCHER.value]: Slot.make('TenantSwitcher'),
    // Nested content: the Callout renders the WelcomeCard slot as its children.
    [SlotLocation.DASHBOARD_BEFORE_CARDS.value]: Slot.make(
      'Callout',
      { tone: 'success' },
      Slot.make('WelcomeCard', { title: 'Welcome to your content workspace' }),
    ),
    [SlotLocation.DASHBOARD_AFTER_CARDS.value]: Slot.make('ShortcutLinks', {
      links: [
        { label: 'All articles', href: '/resources/articles' },
        { label: 'All authors', href: '/resources/authors' },
      ],
    }),
    [SlotLocation.RESOURCE_PAGE_ACTIONS.value]: [
      Slot.make('CopyLinkAction'),
      Slot.make('ExportJsonAction', { filenamePrefix: 'record' }),
    ],
    [SlotLocation.RESOURCE_EDIT_ACTIONS.value]: Slot.make('CopyLinkAction'),
    // Above the form of every resource with the same props (the location says nothing of the resource): each tip
    // must fit each form, the authors' one included, whose title field is labelled Name.
    [SlotLocation.RESOURCE_BEFORE_FORM.value]: Slot.make('EditingTips', {
      tips: [
        'The title, or an author’s name, is what readers see first: keep it short.',
        'The label is for staff only; use it to tell similar records apart.',
        'Nothing is saved until you press Save (Create, for a new record).',
      ],
    }),
    [SlotLocation.RESOURCE_AFTER_FORM.value]: Slot.make('SaveNote', {
      // Shown on the New page too: it speaks of what is saved, not of a record that may not exist yet.
      text: 'What you save is what everyone in your tenant sees; earlier versions are not kept.',
    }),
    [SlotLocation.RESOURCE_BEFORE_RELATIONS.value]: Slot.make('ActivityTimeline', { limit: 5 }),
    [SlotLocation.RESOURCE_AFTER_RELATIONS.value]: Slot.make('RelatedHint', {
      text: 'Related records belong to the same tenant; open one to edit it.',
    }),
  };
}
