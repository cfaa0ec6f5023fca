import { BOOT_DATA_ELEMENT_ID, SESSION_DATA_ELEMENT_ID } from '../../shared';
import { readBootData, readSessionData } from './read-boot-data';

const REMOTE = {
  name: 'team_marketing',
  entry: '/remotes/team_marketing/mf-manifest.json',
  components: ['LoginNotice'],
  formComponents: [],
};

function page(content: string, type = 'application/json', id = BOOT_DATA_ELEMENT_ID): Document {
  const doc = document.implementation.createHTMLDocument('boot');
  const element = doc.createElement('script');
  element.type = type;
  element.id = id;
  element.textContent = content;
  doc.head.append(element);
  return doc;
}

describe('readBootData', () => {
  it('reads the remote descriptors and the components the server put into the page', () => {
    const data = {
      remotes: [REMOTE],
      components: [{ component: 'LoginNotice' }, { component: 'LoginSidebarPromo', media: '(min-width: 1024px)' }],
    };
    expect(readBootData(page(JSON.stringify(data)))).toEqual({ ...data, problems: [], showSlotDetails: false });
  });

  it('shows slot details only when the server says true: absent or anything else means no', () => {
    const data = { remotes: [REMOTE], components: [] };
    expect(readBootData(page(JSON.stringify({ ...data, showSlotDetails: true })))?.showSlotDetails).toBe(true);
    expect(readBootData(page(JSON.stringify({ ...data, showSlotDetails: 'yes' })))?.showSlotDetails).toBe(false);
    expect(readBootData(page(JSON.stringify(data)))?.showSlotDetails).toBe(false);
  });

  it('is null without the element, with another type, or with text that is not a JSON object', () => {
    expect(readBootData(document.implementation.createHTMLDocument('none'))).toBeNull();
    expect(readBootData(page(JSON.stringify({ remotes: [], components: [] }), 'text/javascript'))).toBeNull();
    expect(readBootData(page('{oops'))).toBeNull();
    expect(readBootData(page('[1, 2]'))).toBeNull();
  });

  it('drops malformed parts and says what they were', () => {
    const parsed = readBootData(
      page(
        JSON.stringify({
          remotes: [REMOTE, { name: 'broken' }],
          components: [{ component: 'LoginNotice' }, { component: '<img>' }, { component: 'Callout', media: 7 }, 'x'],
        }),
      ),
    );
    expect(parsed?.remotes).toEqual([REMOTE]);
    expect(parsed?.components).toEqual([{ component: 'LoginNotice' }]);
    expect(parsed?.problems).toEqual([
      'remotes[1] is not a remote descriptor',
      'components[1] is not a component',
      'components[2] has a media query that is not text',
      'components[3] is not a component',
    ]);
    expect(readBootData(page(JSON.stringify({ remotes: [REMOTE] })))?.problems).toEqual(['`components` is not a list']);
  });
});

describe('readSessionData', () => {
  const SESSION = {
    me: { user: { username: 'admin', displayName: 'Admin', tenants: [], currentTenant: 'acme' } },
    meta: { dashboards: [], modules: [], slots: { 'dashboard-after-cards': [{ component: 'Callout', props: {} }] } },
  };
  const sessionPage = (content: string, type?: string) => page(content, type, SESSION_DATA_ELEMENT_ID);

  it('reads what GET /me and GET /meta would answer, as the server escaped it into a signed-in page', () => {
    const escaped = JSON.stringify({ ...SESSION, meta: { ...SESSION.meta, note: '</script>&' } }).replace(
      /[<>&]/g,
      (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
    );
    expect(readSessionData(sessionPage(escaped))).toEqual({
      ...SESSION,
      meta: { ...SESSION.meta, note: '</script>&' },
    });
  });

  it('reads that nobody is signed in, as the server says it in the page of a request without a session', () => {
    expect(readSessionData(sessionPage('{"me":null}'))).toEqual({ me: null });
    // Only `me: null` says so: anything else without both answers is no session data.
    expect(readSessionData(sessionPage('{"me":false}'))).toBeNull();
    expect(readSessionData(sessionPage('null'))).toBeNull();
  });

  it('reads the public slots of a page without a session, as the server escaped GET /slots into it', () => {
    const slots = { slots: { 'login-before-form': [{ component: 'Callout', props: { text: '</script>&' } }] } };
    const escaped = JSON.stringify({ me: null, slots }).replace(/[<>&]/g, (character) => {
      return `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;
    });
    expect(escaped).not.toContain('</script>');
    expect(readSessionData(sessionPage(escaped))).toEqual({ me: null, slots });
  });

  it('is null on a page without it, and for anything without the shape of both answers', () => {
    expect(readSessionData(document.implementation.createHTMLDocument('none'))).toBeNull();
    expect(readSessionData(page(JSON.stringify(SESSION)))).toBeNull();
    expect(readSessionData(sessionPage(JSON.stringify(SESSION), 'text/javascript'))).toBeNull();
    expect(readSessionData(sessionPage('{oops'))).toBeNull();
    expect(readSessionData(sessionPage(JSON.stringify({ me: SESSION.me })))).toBeNull();
    expect(readSessionData(sessionPage(JSON.stringify({ ...SESSION, me: {} })))).toBeNull();
    expect(readSessionData(sessionPage(JSON.stringify({ ...SESSION, meta: { slots: {} } })))).toBeNull();
  });
});
