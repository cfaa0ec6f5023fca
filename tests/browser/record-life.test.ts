import type { Locator, Page } from 'playwright-core';
import type { RecordListPayload, RecordPayload } from '../../shared';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { reactPropsBelow } from '../../testing/system/react-props';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';
import { focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * A record's life in the shell, by the keyboard: created on the New page with its form slots, found by a word in the
 * middle of its title, deleted from the list and from its page, and brought back with Undo.
 */
jest.setTimeout(90_000);

const suite = useBrowserSuite();

const FORM = 'form[data-resource-form="articles"]';
const TITLE = 'Quarterly zeppelin review';

/** The first column of the rows shown. */
function shownTitles(page: Page): Promise<string[]> {
  return page.locator('main tbody tr td:first-child').allTextContents();
}

async function waitForTitles(page: Page, titles: string[]): Promise<void> {
  await page.waitForFunction(
    (expected) =>
      JSON.stringify([...document.querySelectorAll('main tbody tr td:first-child')].map((cell) => cell.textContent)) ===
      JSON.stringify(expected),
    titles,
  );
}

/** Creates the article on the New page by the keyboard, its slug set by the SlugPreview form slot; its id. */
async function createArticle(page: Page): Promise<number> {
  await page.goto('/resources/articles');
  await waitForSettledPage(page);
  await page.getByRole('link', { name: 'New', exact: true }).focus();
  await page.keyboard.press('Enter');
  await page.waitForURL((url) => url.pathname === '/resources/articles/new');
  const slugPreview = page.locator(`${FORM} [data-form-slot="SlugPreview"]`);
  await slugPreview.getByText('Slug preview').waitFor({ timeout: SLOT_TIMEOUT_MS });
  const slotProps = await reactPropsBelow(page, `${FORM} [data-form-slot="SlugPreview"]`, 'formContext');
  expect(slotProps).toMatchObject({ resource: 'articles', formContext: { mode: 'create', values: { title: '' } } });

  await page.locator(`${FORM} [name="title"]`).focus();
  await page.keyboard.type(TITLE);
  await slugPreview.getByRole('button', { name: 'Use as slug' }).focus();
  await page.keyboard.press('Enter');
  await slugPreview.getByRole('button', { name: /is up to date/ }).waitFor();
  // The focus stays on the button, now up to date (a disabled button sent it to the page's body).
  expect(await slugPreview.getByRole('button').evaluate((button) => button === document.activeElement)).toBe(true);
  expect(await page.locator(`${FORM} [name="slug"]`).inputValue()).toBe('quarterly-zeppelin-review');
  // The author: searched by a word of the name, chosen with the arrow and Enter (which does not send the form).
  await page.getByRole('combobox', { name: 'Author' }).focus();
  await page.keyboard.type('hopp');
  await page.getByRole('option', { name: /^Grace Hopper/ }).waitFor();
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  expect(await page.getByRole('combobox', { name: 'Author' }).inputValue()).toBe('Grace Hopper');
  await page.locator(`${FORM} [name="label"]`).focus();
  await page.keyboard.type('Review');
  const [created] = await Promise.all([
    page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/records')),
    page.keyboard.press('Enter'),
  ]);
  expect(created.status()).toBe(201);
  const { record } = (await created.json()) as RecordPayload;
  expect(record).toMatchObject({ title: TITLE, label: 'Review', slug: 'quarterly-zeppelin-review' });
  await page.waitForURL((url) => url.pathname === `/resources/articles/${record.id}`);
  await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
  // The record's page names its author and links to her.
  const author = page.locator('.record__field[data-field="authorId"] a');
  expect(await author.textContent()).toBe('Grace Hopper');
  expect(await author.getAttribute('href')).toBe(`/resources/authors/${String(record.authorId)}`);
  return record.id;
}

describe('a text field at its maximum length', () => {
  /** A signed-in page on a new article, and its Label field (100 characters at most). */
  async function newArticleLabel(): Promise<{ page: Page; label: Locator }> {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/articles/new');
    const label = page.locator(`${FORM} [name="label"]`);
    await label.waitFor();
    return { page, label };
  }

  it('takes characters as the server counts them, and refuses one typed into it where it was typed', async () => {
    const { page, label } = await newArticleLabel();
    // Label takes 100 characters: 100 emoji are 200 UTF-16 units, which a browser's own maxlength would stop at 50.
    await label.fill('🎉'.repeat(99));
    await label.press('End');
    await page.keyboard.type('🎉x');
    expect(await label.inputValue()).toBe('🎉'.repeat(100));
    // Full: a letter typed after the first character is refused, the last one kept, the caret where it was.
    await label.fill(`A${'b'.repeat(98)}Z`);
    await label.evaluate((box: HTMLInputElement) => box.setSelectionRange(1, 1));
    await page.keyboard.type('XY');
    expect(await label.inputValue()).toBe(`A${'b'.repeat(98)}Z`);
    expect(await label.evaluate((box: HTMLInputElement) => box.selectionStart)).toBe(1);
  });

  it('lets an input method compose beyond the room left, and keeps what it commits within the maximum', async () => {
    const { page, label } = await newArticleLabel();
    // Room for two characters: a Chinese input method shows the pinyin "nihao" (five letters) while the person
    // chooses, then commits 你好 (two). Cut while composing, the pinyin stopped at "ni" and the choice was lost.
    await label.fill('b'.repeat(98));
    await label.press('End');
    const ime = await page.context().newCDPSession(page);
    for (const pinyin of ['n', 'ni', 'nih', 'niha', 'nihao']) {
      await ime.send('Input.imeSetComposition', {
        text: pinyin,
        selectionStart: pinyin.length,
        selectionEnd: pinyin.length,
      });
    }
    expect(await label.inputValue()).toBe(`${'b'.repeat(98)}nihao`);
    await ime.send('Input.insertText', { text: '你好' });
    expect(await label.inputValue()).toBe(`${'b'.repeat(98)}你好`);
    // A commit longer than the room left is cut to it, as the browser's own maxlength cuts a composition.
    await label.fill('b'.repeat(98));
    await label.press('End');
    await ime.send('Input.imeSetComposition', { text: 'nihaoma', selectionStart: 7, selectionEnd: 7 });
    await ime.send('Input.insertText', { text: '你好吗' });
    expect(await label.inputValue()).toBe(`${'b'.repeat(98)}你好`);
    // What the form holds is what the box shows: the record is saved with it.
    await page.locator(`${FORM} [name="title"]`).fill('Composed');
    const [created] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'POST' && response.url().endsWith('/records')),
      label.press('Enter'),
    ]);
    expect(created.status()).toBe(201);
    expect(((await created.json()) as RecordPayload).record.label).toBe(`${'b'.repeat(98)}你好`);
  });
});

describe('a record from creation to deletion', () => {
  it('is created with a form slot, found by a middle word, deleted from the list and restored, by keyboard', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const id = await createArticle(page);

    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    await page.getByRole('searchbox', { name: 'Search articles' }).focus();
    await page.keyboard.type('ZEPPEL');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('search') === 'ZEPPEL');
    await waitForTitles(page, [TITLE]);
    await expect(page.getByRole('status').filter({ hasText: 'Showing' }).textContent()).resolves.toBe(
      'Showing 1 of 1 article with the words “ZEPPEL”, best matches first.',
    );
    // The found records can be sorted by a column heading too: the search stays (record-list-tools.test.ts).
    expect(await page.locator('table thead button.table__sort').count()).toBe(4);

    // The dialog asks again, starting on Cancel; Shift+Tab reaches Delete.
    await page.getByRole('button', { name: `Delete ${TITLE}` }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: `Delete “${TITLE}”?` }).waitFor();
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Cancel' });
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Shift+Tab');
    const [deleted] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'DELETE'),
      page.keyboard.press('Enter'),
    ]);
    expect(deleted.status()).toBe(200);
    await page.getByRole('status').getByText(`Deleted “${TITLE}”.`).waitFor();
    await waitForTitles(page, []);
    expect(await focusedElement(page)).toMatchObject({ tag: 'button', text: 'Undo' });

    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText(`Restored “${TITLE}”.`).waitFor();
    await waitForTitles(page, [TITLE]);
    await page.goto(`/resources/articles/${id}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
  });

  it('is deleted from its own page with the undo offered on the list; an author with articles is refused', async () => {
    const { page } = await suite.newPage({ viewport: { width: 390, height: 844 } });
    await signIn(page);
    const id = await createArticle(page);
    // Seen from a list sorted by title: the delete leads back to that list as it was left, as the breadcrumb does.
    await page.goto('/resources/articles?sort=title&order=desc');
    await waitForSettledPage(page);
    await page.goto(`/resources/articles/${id}`);
    await page.getByRole('heading', { level: 1, name: TITLE }).waitFor();
    await page.getByRole('button', { name: `Delete ${TITLE}` }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.waitForURL((url) => url.pathname === '/resources/articles' && url.search === '?sort=title&order=desc');
    await page.getByRole('status').getByText(`Deleted “${TITLE}”.`).waitFor();
    expect(await shownTitles(page)).not.toContain(TITLE);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Undo' }).click();
    await page.getByRole('status').getByText(`Restored “${TITLE}”.`).waitFor();
    await page.waitForFunction(
      (title) =>
        [...document.querySelectorAll('main tbody tr td:first-child')].some((cell) => cell.textContent === title),
      TITLE,
    );
    expect((await page.request.get(`/api/resources/articles/records/${id}`)).status()).toBe(200);
    // The undo was offered once: a reload does not offer it again.
    await page.reload();
    await waitForSettledPage(page);
    expect(await page.getByText(`Deleted “${TITLE}”.`).count()).toBe(0);

    // Ada Lovelace wrote demo articles: the refusal names them in the dialog, and she stays.
    await page.goto('/resources/authors?search=ada');
    await waitForTitles(page, ['Ada Lovelace']);
    await page.getByRole('button', { name: 'Delete Ada Lovelace' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete “Ada Lovelace”?' });
    await dialog.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog
      .getByRole('alert')
      .getByText(/cannot be deleted: \d+ articles \(“Launching the spring catalogue”/)
      .waitFor();
    await page.keyboard.press('Escape');
    await waitForTitles(page, ['Ada Lovelace']);
  });

  it('is filtered by group and by author from the keyboard, the filters kept in the address with the search', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const all = (await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records?limit=100')).body.records;
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    // The filters are folded under "Filters (n)": opened from the keyboard.
    await page.locator('main details.list-filters-disclosure > summary').focus();
    await page.keyboard.press('Enter');
    await page.getByRole('combobox', { name: 'Group' }).focus();
    await page.keyboard.type('news');
    await page.getByRole('button', { name: 'Apply filters' }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('filter.group') === 'news');
    const news = all.filter((record) => record.group === 'news');
    await waitForTitles(
      page,
      news.map((record) => record.title),
    );
    await expect(page.getByRole('status').filter({ hasText: 'Showing' }).textContent()).resolves.toBe(
      `Showing ${news.length} of ${news.length} ${news.length === 1 ? 'article' : 'articles'}, filtered, oldest first.`,
    );

    // The author filter searches the authors by name; a word search keeps both filters.
    await page.getByRole('combobox', { name: 'Author' }).fill('lovelace');
    await page.getByRole('option', { name: /^Ada Lovelace/ }).click();
    expect(await page.getByRole('combobox', { name: 'Author' }).inputValue()).toBe('Ada Lovelace');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL((url) => url.searchParams.has('filter.author'));
    const adaId = Number(new URL(page.url()).searchParams.get('filter.author'));
    const adaNews = news.filter((record) => record.authorId === adaId);
    await waitForTitles(
      page,
      adaNews.map((record) => record.title),
    );
    await page.getByRole('searchbox', { name: 'Search articles' }).fill('spring');
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.searchParams.get('search') === 'spring');
    expect(new URL(page.url()).searchParams.get('filter.group')).toBe('news');
    await waitForTitles(
      page,
      adaNews.filter((record) => /spring/i.test(JSON.stringify(record))).map((record) => record.title),
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.waitForURL(
      (url) => !url.searchParams.has('filter.group') && url.searchParams.get('search') === 'spring',
    );
  });

  it('bulk-changes a field and bulk-deletes by keyboard, saying which records were refused, with Undo', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    for (const title of ['Bulk one', 'Bulk two']) {
      const created = await page.request.post('/api/resources/authors/records', {
        data: { title, label: 'Bulk', group: 'staff' },
        headers: { Origin: new URL(page.url()).origin },
      });
      expect(created.status()).toBe(201);
    }
    await page.goto('/resources/authors?search=bulk');
    // Best matches first: both have the word in their name, the newer first.
    await waitForTitles(page, ['Bulk two', 'Bulk one']);
    await page.getByRole('checkbox', { name: 'Select all 2 on this page' }).focus();
    await page.keyboard.press('Space');
    await page.getByText('2 selected').waitFor();
    await page.getByRole('combobox', { name: 'Field to set' }).selectOption({ label: 'Group' });
    await page.getByRole('combobox', { name: 'New value' }).focus();
    await page.keyboard.type('guest');
    await page.getByRole('button', { name: 'Set on selected' }).focus();
    await page.keyboard.press('Enter');
    // Asked again, as a delete is: the dialog opens on Cancel, its action is Shift+Tab away.
    await page.getByRole('dialog', { name: 'Set Group to guest on 2 authors?' }).waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('status').getByText('Changed 2 of 2 authors.').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('main tbody tr td:nth-child(3)')].every((cell) => cell.textContent === 'guest'),
    );

    // Ada wrote articles: she is refused and named, Bulk one goes, and Undo brings it back.
    await page.goto('/resources/authors');
    await waitForSettledPage(page);
    for (const title of ['Ada Lovelace', 'Bulk one']) {
      await page.getByRole('checkbox', { name: `Select ${title}` }).focus();
      await page.keyboard.press('Space');
    }
    await page.getByRole('button', { name: 'Delete selected' }).focus();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Delete 2 authors?' }).waitFor();
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Enter');
    const outcome = page.locator('.bulk-actions__outcome');
    await outcome.getByText('Deleted 1 of 2 authors.').waitFor();
    await outcome.getByText(/^“Ada Lovelace”: “Ada Lovelace” cannot be deleted/).waitFor();
    await page.waitForFunction(
      () =>
        ![...document.querySelectorAll('main tbody tr td:first-child')].some((cell) => cell.textContent === 'Bulk one'),
    );
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Undo delete' }).click();
    await outcome.getByText('Restored 1 of 1 author.').waitFor();
    await page.waitForFunction(() =>
      [...document.querySelectorAll('main tbody tr td:first-child')].some((cell) => cell.textContent === 'Bulk one'),
    );
  });
});
