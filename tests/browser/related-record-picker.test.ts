/**
 * Enter in the related-record picker (host/forms/related-record-picker.tsx) with no option reached by the arrows, by
 * the keyboard in Chromium: it leaves the list as it is (WAI-ARIA's combobox pattern) and the form unsent while the
 * list is open or a name typed is not chosen; only with the list closed and nothing typed is Enter the form's.
 */
import type { Page } from 'playwright-core';
import type { RecordListPayload } from '../../shared';
import { axeViolations } from '../../testing/system/axe';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { waitForSettledPage } from '../../testing/system/staff-pages';
import { switchTenantByKeyboard } from '../../testing/system/tenant-switch';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

const FORM = 'form[data-resource-form="articles"]';

/** The new article's form with its required fields filled in, and a count of the times it was sent from here on. */
async function newArticle(page: Page): Promise<{ sent: () => number }> {
  await page.goto('/resources/articles/new');
  await waitForSettledPage(page);
  await page.locator(`${FORM} [name="title"]`).fill('Picker keys');
  await page.locator(`${FORM} [name="label"]`).fill('Keys');
  let sent = 0;
  page.on('request', (request) => {
    if (request.method() === 'POST' && new URL(request.url()).pathname === '/api/resources/articles/records') sent++;
  });
  return { sent: () => sent };
}

/** Presses a key in the picker, then waits past the search's delay and a search, for what it may set off. */
async function press(page: Page, key: string): Promise<void> {
  await page.keyboard.press(key);
  await page.waitForTimeout(500);
  await waitForSettledPage(page);
}

it('does nothing on Enter with the first authors shown and none reached, though there is only one', async () => {
  const { page } = await suite.newPage();
  await signIn(page);
  // In Globex (two authors), one author left: a list of one offered before anything is typed is no match. Its
  // articles go first: an author of an article cannot be deleted.
  await waitForSettledPage(page);
  expect((await switchTenantByKeyboard(page)).status()).toBe(200);
  for (const resource of ['articles', 'authors']) {
    const { records } = (await fetchInPage<RecordListPayload>(page, `/api/resources/${resource}/records`)).body;
    for (const record of resource === 'authors' ? records.slice(1) : records) {
      const path = `/api/resources/${resource}/records/${record.id}`;
      expect([path, (await fetchInPage(page, path, { method: 'DELETE' })).status]).toEqual([path, 200]);
    }
  }
  const [kept, ...others] = (await fetchInPage<RecordListPayload>(page, '/api/resources/authors/records')).body.records;
  expect([kept?.title, others]).toEqual([expect.any(String), []]);
  const form = await newArticle(page);
  const box = page.getByRole('combobox', { name: 'Author' });
  await box.focus();
  await press(page, 'ArrowDown');
  const choices = page.getByRole('listbox', { name: 'Author: choices' }).getByRole('option');
  await choices.filter({ hasText: kept!.title }).waitFor();
  expect(await box.getAttribute('aria-activedescendant')).toBeNull();

  await press(page, 'Enter');
  expect(await box.getAttribute('aria-expanded')).toBe('true');
  expect(await box.inputValue()).toBe('');
  expect(await choices.count()).toBe(1);
  expect(form.sent()).toBe(0);
  // The arrow reaches it, and Enter then chooses it.
  await press(page, 'ArrowDown');
  await press(page, 'Enter');
  expect([await box.inputValue(), await box.getAttribute('aria-expanded')]).toEqual([kept!.title, 'false']);
  expect(form.sent()).toBe(0);
});

it('keeps the list and the form as they are on Enter after a name that matches none; closed and empty, Enter sends', async () => {
  const { page } = await suite.newPage();
  await signIn(page);
  const form = await newArticle(page);
  const box = page.getByRole('combobox', { name: 'Author' });
  await box.focus();
  await page.keyboard.type('zzz');
  await page.getByText('Nothing matches “zzz”.').waitFor();
  await press(page, 'Enter');
  expect([await box.inputValue(), await box.getAttribute('aria-expanded')]).toEqual(['zzz', 'true']);
  expect(form.sent()).toBe(0);

  // Several match "a" and none is reached: the list stays open, nothing chosen, nothing sent.
  await box.fill('a');
  await page.getByText(/\d+ to choose from\./).waitFor();
  await press(page, 'Enter');
  expect([await box.inputValue(), await box.getAttribute('aria-expanded')]).toEqual(['a', 'true']);
  expect(form.sent()).toBe(0);

  // Escape gives the box back as it was (empty) and closes the list: Enter is then the form's, as in any text box.
  await press(page, 'Escape');
  expect([await box.inputValue(), await box.getAttribute('aria-expanded')]).toEqual(['', 'false']);
  await Promise.all([
    page.waitForURL((url) => /^\/resources\/articles\/\d+$/.test(url.pathname)),
    page.keyboard.press('Enter'),
  ]);
  expect(form.sent()).toBe(1);
});

it('keeps the note under a long list of authors in view, its options scrolling, with nothing axe finds', async () => {
  const { page } = await suite.newPage();
  await signIn(page);
  await waitForSettledPage(page);
  // More authors than the picker offers before a name is typed (10): the note under the options says so.
  for (let index = 0; index < 11; index++) {
    const made = await fetchInPage(page, '/api/resources/authors/records', {
      method: 'POST',
      body: { title: `Picker author ${index}`, label: 'P' },
    });
    expect(made.status).toBe(201);
  }
  await newArticle(page);
  await page.getByRole('combobox', { name: 'Author' }).focus();
  await press(page, 'ArrowDown');
  const note = page.getByText('The first 10: type a name to find others.');
  await note.waitFor();
  const seen = await note.evaluate((element) => {
    const popup = element.closest('.picker__popup')!;
    const list = popup.querySelector('[role="listbox"]')!;
    const [box, frame] = [element.getBoundingClientRect(), popup.getBoundingClientRect()];
    return {
      // The note whole inside the popup's visible box: not scrolled out below the options, out of a keyboard's reach.
      noteInView: box.top >= frame.top && box.bottom <= frame.bottom + 0.5,
      // What scrolls is the listbox, whose options the arrows reach.
      listScrolls: list.scrollHeight > list.clientHeight,
      popupScrolls: popup.scrollHeight > popup.clientHeight,
    };
  });
  expect(seen).toEqual({ noteInView: true, listScrolls: true, popupScrolls: false });
  expect(await axeViolations(page)).toEqual([]);
});
