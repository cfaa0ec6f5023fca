import type { Page } from 'playwright-core';
import type { ResourceRecord } from '../../shared';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';
import { firstRecord, scrollsSideways, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(120_000);

const suite = useBrowserSuite();

/** A page as staff reach it: a path, and what to do there before it is checked (e.g. make an error show). */
interface StaffPage {
  name: string;
  path: string;
  prepare?: (page: Page) => Promise<void>;
}

/** Every page of the admin, and the states with their own markup (errors), in the order a person meets them. */
async function staffPages(page: Page): Promise<StaffPage[]> {
  const article = await firstRecord(page, 'articles');
  const author = await firstRecord(page, 'authors');
  return [
    { name: 'dashboard', path: '/' },
    { name: 'articles list', path: '/resources/articles' },
    { name: 'authors list', path: '/resources/authors' },
    { name: 'article', path: `/resources/articles/${article.id}` },
    { name: 'author', path: `/resources/authors/${author.id}` },
    { name: 'article edit', path: `/resources/articles/${article.id}/edit` },
    { name: 'new article', path: '/resources/articles/new' },
    {
      name: 'new article with a refused create',
      path: '/resources/articles/new',
      prepare: async (current) => {
        await current.getByRole('button', { name: 'Create' }).click();
        await current.getByRole('alert').getByText('fields need attention').waitFor();
      },
    },
    { name: 'articles found by a word', path: '/resources/articles?search=spring' },
    {
      name: 'articles filtered by the featured box and a range of days',
      path: '/resources/articles?filter.featured=false&filter.published=2023-01-01..2024-12-31',
    },
    {
      name: 'delete confirmation',
      path: `/resources/articles/${article.id}`,
      prepare: async (current) => {
        await current.getByRole('button', { name: /^Delete / }).click();
        await current.getByRole('dialog').waitFor();
      },
    },
    {
      name: 'article edit with a refused save',
      path: `/resources/articles/${article.id}/edit`,
      prepare: async (current) => {
        await current.locator('form[data-resource-form] [name="title"]').fill('');
        await current.getByRole('button', { name: 'Save' }).click();
        await current.getByRole('alert').getByText('needs attention').waitFor();
      },
    },
    {
      name: 'article edit after a save',
      path: `/resources/articles/${article.id}/edit`,
      prepare: async (current) => {
        await current.getByRole('button', { name: 'Save' }).click();
        await current.locator('form[data-resource-form] [role="status"]').getByText('Saved.').waitFor();
      },
    },
    { name: 'record not found', path: '/resources/articles/999999' },
    { name: 'page not found', path: '/resources/articles/1/edit/more' },
    { name: 'unknown address', path: '/settings' },
    { name: 'service status', path: '/status' },
    {
      name: 'slot inspector',
      path: '/inspect',
      prepare: async (current) => {
        await current.getByRole('heading', { name: 'Remotes' }).waitFor();
      },
    },
    {
      name: 'location catalogue',
      path: '/locations',
      prepare: async (current) => {
        await current.getByRole('heading', { name: 'tenant-switcher', level: 2 }).waitFor();
      },
    },
  ];
}

/** The level of the page's first visible heading: its title (h1) opens the outline, before any slot's heading. */
function firstHeadingLevel(page: Page): Promise<number | null> {
  return page.evaluate(() => {
    const headings = [...document.querySelectorAll<HTMLElement>('h1, h2, h3, h4, h5, h6, [role="heading"]')];
    // A dialog's heading titles the dialog, not the page.
    const first = headings.find((heading) => heading.getClientRects().length > 0 && !heading.closest('dialog'));
    if (!first) return null;
    return Number(first.getAttribute('aria-level') ?? first.tagName.slice(1));
  });
}

async function check(page: Page, name: string, width: number) {
  await waitForSettledPage(page);
  expect({ page: name, width, violations: await axeViolations(page) }).toEqual({ page: name, width, violations: [] });
  expect({ page: name, width, firstHeading: await firstHeadingLevel(page) }).toEqual({
    page: name,
    width,
    firstHeading: 1,
  });
  expect({ page: name, width, scrollsSideways: await scrollsSideways(page) }).toEqual({
    page: name,
    width,
    scrollsSideways: false,
  });
}

describe.each([
  ['desktop', 1280],
  ['phone', 390],
])('every page at %s width (%i px)', (_label, width) => {
  it('has no WCAG 2.2 A/AA violation (axe-core) and does not scroll sideways', async () => {
    const { page } = await suite.newPage({ viewport: { width, height: 900 } });

    await page.goto('/login');
    await check(page, 'sign-in', width);
    await page.locator('input[name="username"]').fill('admin');
    await page.locator('input[name="password"]').fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').waitFor();
    await check(page, 'sign-in with a refused attempt', width);

    await signIn(page);
    for (const staffPage of await staffPages(page)) {
      await page.goto(staffPage.path);
      await waitForSettledPage(page);
      await staffPage.prepare?.(page);
      await check(page, staffPage.name, width);
    }
  });
});

describe('phones', () => {
  it('keep Sign out on screen from 320 to 599 px, on the dark header, without sideways scrolling', async () => {
    const { page } = await suite.newPage({ viewport: { width: 320, height: 800 } });
    await signIn(page);
    const article = await firstRecord(page, 'articles');
    for (const width of [320, 390, 599]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of [
        '/',
        '/resources/articles',
        `/resources/articles/${article.id}`,
        `/resources/articles/${article.id}/edit`,
      ]) {
        await page.goto(path);
        await waitForSettledPage(page);
        expect({ path, width, scrollsSideways: await scrollsSideways(page) }).toEqual({
          path,
          width,
          scrollsSideways: false,
        });
        const signOut = await page.getByRole('button', { name: 'Sign out' }).boundingBox();
        const header = await page.locator('header.header').boundingBox();
        if (!signOut || !header) throw new Error(`Sign out or the header is not shown at ${width} px on ${path}.`);
        // Inside the viewport, and inside the header's dark background rather than past its edge on the light page.
        expect({ path, width, onScreen: signOut.x >= 0 && signOut.x + signOut.width <= width }).toEqual({
          path,
          width,
          onScreen: true,
        });
        expect(signOut.x + signOut.width <= header.x + header.width).toBe(true);
        expect(signOut.y + signOut.height <= header.y + header.height).toBe(true);
      }
    }
  });
});

/** Whether `selector`'s first element is wider inside than it is (its content overflows it sideways). */
function overflows(page: Page, selector: string): Promise<boolean> {
  return page
    .locator(selector)
    .first()
    .evaluate((element) => element.scrollWidth > element.clientWidth);
}

describe('words longer than the screen', () => {
  // A German compound of 63 letters, and a word of 170 (a run of letters pasted, a hash): people's text, not ours.
  const COMPOUND = 'Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz';
  const WORD = `Unbroken${'x'.repeat(162)}`;

  it('break inside a record’s pages and its Delete question on a phone, and inside the Newest box on a desktop', async () => {
    const { page } = await suite.newPage({ viewport: { width: 320, height: 800 } });
    await signIn(page);
    const create = (title: string) =>
      fetchInPage<{ record: ResourceRecord }>(page, '/api/resources/articles/records', {
        method: 'POST',
        body: { title, label: COMPOUND, slug: COMPOUND.toLowerCase(), body: `${COMPOUND} ${WORD}` },
      });
    const created = await create(COMPOUND);
    expect(created.status).toBe(201);
    const { id } = created.body.record;
    for (const width of [320, 390]) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of [`/resources/articles/${id}`, `/resources/articles/${id}/edit`]) {
        await page.goto(path);
        await waitForSettledPage(page);
        await page.getByRole('heading', { level: 1, name: COMPOUND, exact: false }).waitFor();
        expect({ path, width, scrollsSideways: await scrollsSideways(page) }).toEqual({
          path,
          width,
          scrollsSideways: false,
        });
      }
    }
    // The question naming it stays inside its dialog.
    await page.goto(`/resources/articles/${id}`);
    await waitForSettledPage(page);
    await page.getByRole('button', { name: `Delete ${COMPOUND}` }).click();
    await page.getByRole('dialog', { name: `Delete “${COMPOUND}”?` }).waitFor();
    expect(await overflows(page, 'dialog')).toBe(false);
    await page.keyboard.press('Escape');

    // The Newest box lists the record of the long word, beside the page's other cards.
    expect((await create(WORD)).status).toBe(201);
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto(`/resources/articles/${id}`);
    await waitForSettledPage(page);
    await page.locator('.timeline').getByRole('link', { name: WORD }).waitFor({ timeout: SLOT_TIMEOUT_MS });
    expect({
      newestOverflows: await overflows(page, '.timeline'),
      scrollsSideways: await scrollsSideways(page),
    }).toEqual({ newestOverflows: false, scrollsSideways: false });
  });
});

/** WCAG relative luminance of a CSS `rgb(...)` / `rgba(...)` colour. */
function luminance(color: string): number {
  const [r = 0, g = 0, b = 0] = (color.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
  const linear = (channel: number) => {
    const value = channel / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
}

function contrastRatio(one: string, other: string): number {
  const [light, dark] = [luminance(one), luminance(other)].sort((a, b) => b - a) as [number, number];
  return (light + 0.05) / (dark + 0.05);
}

describe('text fields and choices', () => {
  it('are told apart from white and from the page by a border of 3:1 at least (WCAG 1.4.11), the header’s too', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto('/resources/articles/new');
    await waitForSettledPage(page);
    const colours = await page.evaluate(() => {
      const input = document.querySelector('form .input') as HTMLElement;
      const select = document.querySelector('header select') as HTMLElement | null;
      return {
        input: getComputedStyle(input).borderTopColor,
        inputBackground: getComputedStyle(input).backgroundColor,
        page: getComputedStyle(document.body).backgroundColor,
        select: select && getComputedStyle(select).borderTopColor,
        selectBackground: select && getComputedStyle(select).backgroundColor,
        header: getComputedStyle(document.querySelector('header') as HTMLElement).backgroundColor,
      };
    });
    expect(contrastRatio(colours.input, colours.inputBackground)).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(colours.input, colours.page)).toBeGreaterThanOrEqual(3);
    // The tenant switcher of the demo's acme admin (two tenants): its select on the dark header.
    expect(colours.select).not.toBeNull();
    expect(contrastRatio(colours.select ?? '', colours.selectBackground ?? '')).toBeGreaterThanOrEqual(3);
    expect(contrastRatio(colours.select ?? '', colours.header)).toBeGreaterThanOrEqual(3);
  });
});

describe('focus rings', () => {
  it('stand out from the dark header by at least 3:1 when a header control has the keyboard focus', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await waitForSettledPage(page);
    // Reach Sign out by the keyboard, as a keyboard user does: that is when the ring shows (:focus-visible).
    let inHeader = false;
    for (let step = 0; step < 30 && !inHeader; step++) {
      await page.keyboard.press('Tab');
      inHeader = await page.evaluate(() => document.activeElement?.textContent?.trim() === 'Sign out');
    }
    expect(inHeader).toBe(true);
    const ring = await page.evaluate(() => {
      const focused = document.activeElement as HTMLElement;
      const style = getComputedStyle(focused);
      const header = focused.closest('header') as HTMLElement;
      return {
        focusVisible: focused.matches(':focus-visible'),
        outlineStyle: style.outlineStyle,
        outlineWidth: parseFloat(style.outlineWidth),
        outlineColor: style.outlineColor,
        headerBackground: getComputedStyle(header).backgroundColor,
      };
    });
    expect(ring).toMatchObject({ focusVisible: true, outlineStyle: 'solid' });
    expect(ring.outlineWidth).toBeGreaterThanOrEqual(2);
    expect(contrastRatio(ring.outlineColor, ring.headerBackground)).toBeGreaterThanOrEqual(3);
  });
});

/**
 * The outline of a date field's calendar button, a node of the field's user-agent shadow tree that the page's scripts
 * cannot reach: read through the DevTools protocol, which pierces it.
 */
async function calendarButtonOutline(page: Page, field: string): Promise<Record<string, string>> {
  const devtools = await page.context().newCDPSession(page);
  try {
    await devtools.send('DOM.enable');
    await devtools.send('CSS.enable');
    const { root } = await devtools.send('DOM.getDocument', { depth: -1, pierce: true });
    type DomNode = typeof root;
    const inField = (node: DomNode, inside: boolean): DomNode | undefined => {
      const attributes = node.attributes ?? [];
      const here = inside || (node.nodeName === 'INPUT' && attributes[attributes.indexOf('name') + 1] === field);
      if (here && attributes[attributes.indexOf('pseudo') + 1] === '-webkit-calendar-picker-indicator') return node;
      for (const child of [...(node.shadowRoots ?? []), ...(node.children ?? [])]) {
        const found = inField(child, here);
        if (found) return found;
      }
      return undefined;
    };
    const button = inField(root, false);
    if (!button) throw new Error(`No calendar button in the date field ${field}.`);
    const { computedStyle } = await devtools.send('CSS.getComputedStyleForNode', { nodeId: button.nodeId });
    return Object.fromEntries(
      computedStyle.filter(({ name }) => name.startsWith('outline-')).map(({ name, value }) => [name, value]),
    );
  } finally {
    await devtools.detach();
  }
}

describe('the focus ring of a date field’s calendar button', () => {
  it('is the page’s own ring when the button has the keyboard focus, the one the field’s day, month and year show', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto('/resources/articles/new');
    await waitForSettledPage(page);
    const published = page.locator('form[data-resource-form] input[type="date"][name="published"]');
    await published.focus();
    const fieldRing = await published.evaluate((input) => {
      const style = getComputedStyle(input);
      return {
        'outline-color': style.outlineColor,
        'outline-offset': style.outlineOffset,
        'outline-style': style.outlineStyle,
        'outline-width': style.outlineWidth,
      };
    });
    expect(fieldRing).toEqual({
      'outline-color': 'rgb(51, 85, 221)',
      'outline-offset': '2px',
      'outline-style': 'solid',
      'outline-width': '2px',
    });
    // No ring on the button while the focus is on the day, month or year.
    expect(await calendarButtonOutline(page, 'published')).toMatchObject({ 'outline-style': 'none' });

    // The button is the field's last stop: Tab past the field, then Shift+Tab back onto it.
    while (await published.evaluate((input) => input === document.activeElement)) await page.keyboard.press('Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await published.evaluate((input) => input === document.activeElement)).toBe(true);
    // Chromium's own was a 2px line of rgb(16, 16, 16) drawn 2px inside the button, on the icon's own dark lines.
    expect(await calendarButtonOutline(page, 'published')).toEqual(fieldRing);
  });

  it('shows no ring when the button is pressed with the mouse, nor once its calendar is closed', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto('/resources/articles/new');
    await waitForSettledPage(page);
    const published = page.locator('form[data-resource-form] input[type="date"][name="published"]');
    const field = () =>
      published.evaluate((input) => ({
        focused: input === document.activeElement,
        focusVisible: input.matches(':focus-visible'),
        outlineStyle: getComputedStyle(input).outlineStyle,
      }));
    // The button sits at the field's end, inside its padding (0.7rem): a 19 px icon, its middle about 21 px in.
    const box = await published.boundingBox();
    if (!box) throw new Error('The date field is not shown.');
    await published.click({ position: { x: box.width - 21, y: box.height / 2 } });
    // The press reached the button, not the day, month or year (a press there rings the field: it takes typing).
    expect(await field()).toEqual({ focused: true, focusVisible: false, outlineStyle: 'none' });
    expect(await calendarButtonOutline(page, 'published')).toMatchObject({ 'outline-style': 'none' });
    // The calendar closed with Escape gives the focus back to the button: still a mouse's focus, no ring.
    await page.keyboard.press('Escape');
    expect(await field()).toEqual({ focused: true, focusVisible: false, outlineStyle: 'none' });
    expect(await calendarButtonOutline(page, 'published')).toMatchObject({ 'outline-style': 'none' });
  });
});
