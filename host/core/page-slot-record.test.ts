import { PAGE_SLOT_RECORD_KEY, PAGE_SLOT_RECORD_PAGES, PageSlotRecord, type PageSlotStatus } from './page-slot-record';
import { SlotStatus, type SlotPlace } from './slot-status';
import { tabStorage } from './tab-storage';

const notice = (state: PageSlotStatus['state'], extra: Partial<PageSlotStatus> = {}): PageSlotStatus => ({
  location: 'login-before-form',
  index: 0,
  component: 'LoginNotice',
  remote: 'team_marketing',
  state,
  ...extra,
});

describe('PageSlotRecord', () => {
  it('keeps each slot’s latest state per page, the page updated last first, and tells its readers', () => {
    const record = new PageSlotRecord();
    const changes: number[] = [];
    const stop = record.subscribe(() => changes.push(record.snapshot().length));

    record.set('/login', notice('loading'));
    record.set('/login', notice('loaded'));
    record.set('/', notice('failed', { location: 'header-banner', reason: 'load-error', detail: 'timed out' }));
    const before = record.snapshot();
    record.set('/', notice('failed', { location: 'header-banner', reason: 'load-error', detail: 'timed out' }));
    expect(record.snapshot()).toBe(before); // the same state again changes nothing
    record.set('/login', notice('loaded', { index: 1 }));

    expect(record.snapshot()).toEqual([
      { page: '/login', slots: [notice('loaded'), notice('loaded', { index: 1 })] },
      {
        page: '/',
        slots: [notice('failed', { location: 'header-banner', reason: 'load-error', detail: 'timed out' })],
      },
    ]);
    expect(Object.isFrozen(record.snapshot())).toBe(true);
    expect(changes).toEqual([1, 1, 2, 2]);
    stop();
    record.set('/status', notice('loaded'));
    expect(changes).toHaveLength(4);
  });
});

describe('PageSlotRecord following the slot status (a view of it)', () => {
  const place = (component: string, page = '/login'): SlotPlace => ({
    page,
    location: 'login-before-form',
    index: 0,
    component,
    remote: 'team_marketing',
  });

  it('records each transition under the page the slot joined: loaded, failed with why, hidden by a media query', () => {
    const status = new SlotStatus();
    const record = new PageSlotRecord();
    record.follow(status);
    const a = status.handle();
    status.enter(a, place('LoginNotice'));
    expect(record.snapshot()).toEqual([{ page: '/login', slots: [notice('loading')] }]);
    status.rendered(a, place('LoginNotice'));
    const broken = status.handle();
    status.failed(broken, place('Broken', '/'), 'load-error', 'timed out');
    const down = status.handle();
    status.failed(down, place('Down', '/'), 'remote-unavailable', 'Remote "team_a" is down: HTTP 503.');
    status.hidden({ ...place('LoginSidebarPromo'), location: 'login-sidebar' }, '(min-width: 1024px)');
    expect(record.snapshot()).toEqual([
      {
        page: '/login',
        slots: [
          notice('loaded'),
          notice('hidden', {
            location: 'login-sidebar',
            component: 'LoginSidebarPromo',
            reason: 'hidden-by-media',
            detail: '(min-width: 1024px) does not match this window',
          }),
        ],
      },
      {
        page: '/',
        slots: [
          // A timeout, told from the message: the inspector says "timed out", not "remote down".
          notice('failed', { component: 'Broken', reason: 'timed-out', detail: 'timed out' }),
          notice('failed', {
            component: 'Down',
            reason: 'remote-unavailable',
            detail: 'Remote "team_a" is down: HTTP 503.',
          }),
        ],
      },
    ]);
  });
});

describe('PageSlotRecord: a page’s record is what its latest visit rendered', () => {
  const at = (page: string, component: string, location = 'dashboard-before-cards', index = 0): SlotPlace => ({
    page,
    location,
    index,
    component,
    remote: 'team_x',
  });
  const loaded = (component: string, location = 'dashboard-before-cards', index = 0): PageSlotStatus => ({
    location,
    index,
    component,
    remote: 'team_x',
    state: 'loaded',
  });
  /** A slot that joins the page and renders; returns what takes it off the page. */
  const renders = (status: SlotStatus, place: SlotPlace) => {
    const handle = status.handle();
    const leave = status.enter(handle, place);
    status.rendered(handle, place);
    return leave;
  };
  const slotsOf = (record: PageSlotRecord, page: string) =>
    record.snapshot().find((entry) => entry.page === page)?.slots ?? [];

  afterEach(() => window.sessionStorage.clear());

  it('after a page load, lists only what this load rendered, not what the page loaded before it', () => {
    // The earlier load of the dashboard: both slots of the remote loaded.
    const first = new PageSlotRecord(() => window.sessionStorage);
    const before = new SlotStatus();
    first.follow(before);
    renders(before, at('/', 'Stats'));
    renders(before, at('/', 'WelcomeCard', 'dashboard-before-cards', 1));
    expect(slotsOf(first, '/')).toEqual([loaded('Stats'), loaded('WelcomeCard', 'dashboard-before-cards', 1)]);

    // The reload, with the remote's origin stopped: one slot failed, the other was not rendered at all.
    const record = new PageSlotRecord(() => window.sessionStorage);
    const status = new SlotStatus();
    record.follow(status);
    const handle = status.handle();
    status.enter(handle, at('/', 'Stats'));
    status.failed(handle, at('/', 'Stats'), 'remote-unavailable', 'Remote "team_x" is down.');

    expect(slotsOf(record, '/')).toEqual([
      { ...loaded('Stats'), state: 'failed', reason: 'remote-unavailable', detail: 'Remote "team_x" is down.' },
    ]);
    expect(JSON.stringify(slotsOf(new PageSlotRecord(() => window.sessionStorage), '/'))).not.toMatch(/WelcomeCard/);
  });

  it('after navigating back to a page, forgets what only the earlier visit rendered', () => {
    const record = new PageSlotRecord();
    const status = new SlotStatus();
    record.follow(status);
    const leaveStats = renders(status, at('/', 'Stats'));
    const leaveWelcome = renders(status, at('/', 'WelcomeCard', 'dashboard-before-cards', 1));
    leaveStats();
    leaveWelcome();
    const leaveList = renders(status, at('/resources/articles', 'ListTools', 'list-toolbar'));
    leaveList();
    renders(status, at('/', 'Stats'));

    expect(slotsOf(record, '/')).toEqual([loaded('Stats')]);
    expect(slotsOf(record, '/resources/articles')).toEqual([loaded('ListTools', 'list-toolbar')]);
    expect(record.snapshot().map(({ page }) => page)).toEqual(['/', '/resources/articles']);
  });

  it('keeps every pass of one visit, the slots still on screen and the places hidden in this page load', () => {
    const record = new PageSlotRecord();
    const status = new SlotStatus();
    record.follow(status);
    // The layout's slot joins the first page and stays through the navigations.
    renders(status, at('/', 'Banner', 'header-banner'));
    status.hidden(at('/', 'Promo', 'login-sidebar'), '(min-width: 1024px)');
    // The slot data arrives: a second pass of the same visit, then the nested content of a slot.
    const leaveStats = renders(status, at('/', 'Stats'));
    const leaveNested = renders(status, at('/', 'StatsDetail', 'dashboard-before-cards', 2));
    const hidden: PageSlotStatus = {
      location: 'login-sidebar',
      index: 0,
      component: 'Promo',
      remote: 'team_x',
      state: 'hidden',
      reason: 'hidden-by-media',
      detail: '(min-width: 1024px) does not match this window',
    };
    expect(slotsOf(record, '/')).toEqual([
      loaded('Banner', 'header-banner'),
      hidden,
      loaded('Stats'),
      loaded('StatsDetail', 'dashboard-before-cards', 2),
    ]);

    leaveStats();
    leaveNested();
    renders(status, at('/resources/articles', 'ListTools', 'list-toolbar'))();
    // Back on the dashboard: the slot status does not tell the hidden place again in this page load.
    status.hidden(at('/', 'Promo', 'login-sidebar'), '(min-width: 1024px)');
    renders(status, at('/', 'Stats'));
    expect(slotsOf(record, '/')).toEqual([loaded('Banner', 'header-banner'), hidden, loaded('Stats')]);
  });
});

describe('PageSlotRecord kept in the tab’s sessionStorage', () => {
  const fromStorage = () => new PageSlotRecord(() => window.sessionStorage);
  const failed = notice('failed', {
    location: 'dashboard-after-cards',
    component: 'WelcomeCard',
    reason: 'props-invalid',
    detail: 'props.title: Instance type "number" is invalid, got "secret"',
  });
  const hidden = notice('hidden', {
    location: 'login-sidebar',
    reason: 'hidden-by-media',
    detail: '(min-width: 1024px) does not match this window',
  });

  afterEach(() => window.sessionStorage.clear());

  it('outlives a page load: the next record of the tab reads it, without failure messages, the media query kept', () => {
    const first = fromStorage();
    first.set('/login', hidden);
    first.set('/', failed);
    expect(first.snapshot()[0]?.slots[0]?.detail).toMatch(/secret/); // the running page keeps the message

    const stored = window.sessionStorage.getItem(PAGE_SLOT_RECORD_KEY) ?? '';
    expect(stored).not.toMatch(/secret|Instance type/);
    const { detail: _message, ...failedWithoutMessage } = failed;
    expect(fromStorage().snapshot()).toEqual([
      { page: '/', slots: [failedWithoutMessage] },
      { page: '/login', slots: [hidden] },
    ]);
  });

  it('keeps the last pages only, and forgets them all on clear', () => {
    const record = fromStorage();
    for (let page = 1; page <= PAGE_SLOT_RECORD_PAGES + 2; page += 1) record.set(`/page-${page}`, notice('loaded'));
    const expected = ['/page-7', '/page-6', '/page-5', '/page-4', '/page-3'];
    expect(record.snapshot().map(({ page }) => page)).toEqual(expected);
    expect(
      fromStorage()
        .snapshot()
        .map(({ page }) => page),
    ).toEqual(expected);

    const readers: number[] = [];
    record.subscribe(() => readers.push(record.snapshot().length));
    record.clear();
    expect(readers).toEqual([0]);
    expect(window.sessionStorage.getItem(PAGE_SLOT_RECORD_KEY)).toBeNull();
    expect(fromStorage().snapshot()).toEqual([]);
  });

  it('writes itself again when the page is left, if something emptied the storage meanwhile', () => {
    const record = fromStorage();
    const page = new EventTarget();
    const stop = record.saveOnPageHide(page);
    record.set('/', notice('loaded'));
    // As sign-out's Clear-Site-Data does, after the page wrote its record.
    window.sessionStorage.clear();
    page.dispatchEvent(new Event('pagehide'));
    expect(
      fromStorage()
        .snapshot()
        .map(({ page: path }) => path),
    ).toEqual(['/']);

    stop();
    window.sessionStorage.clear();
    page.dispatchEvent(new Event('pagehide'));
    expect(fromStorage().snapshot()).toEqual([]);
  });

  it('leaves out what is not a well-formed record', () => {
    window.sessionStorage.setItem(PAGE_SLOT_RECORD_KEY, '{ not json');
    expect(fromStorage().snapshot()).toEqual([]);
    window.sessionStorage.setItem(
      PAGE_SLOT_RECORD_KEY,
      JSON.stringify([
        { page: '/', slots: [notice('loaded'), { ...notice('loaded'), state: 'exploded' }, { component: 'X' }] },
        { page: 7, slots: [] },
        'nonsense',
      ]),
    );
    expect(fromStorage().snapshot()).toEqual([{ page: '/', slots: [notice('loaded')] }]);
  });

  it('carries on in memory when the storage cannot be reached or refuses every call', () => {
    const refusing = {
      getItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
      setItem: () => {
        throw new DOMException('The quota has been exceeded.', 'QuotaExceededError');
      },
      removeItem: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    } as unknown as Storage;
    const descriptor = Object.getOwnPropertyDescriptor(window, 'sessionStorage');
    Object.defineProperty(window, 'sessionStorage', {
      configurable: true,
      get: () => {
        throw new DOMException('Access is denied for this document.', 'SecurityError');
      },
    });
    try {
      for (const record of [new PageSlotRecord(tabStorage), new PageSlotRecord(() => refusing)]) {
        record.set('/', failed);
        record.set('/login', hidden);
        expect(record.snapshot()).toEqual([
          { page: '/login', slots: [hidden] },
          { page: '/', slots: [failed] },
        ]);
        record.clear();
        expect(record.snapshot()).toEqual([]);
      }
    } finally {
      if (descriptor) Object.defineProperty(window, 'sessionStorage', descriptor);
    }
  });
});
