import type { Dialog, Page } from 'playwright-core';
import { TAB_DRAFT_KEY_PREFIX } from '../../host/hooks/tab-drafts';
import { UNCHANGED_FIELDS_KEY, type RecordPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';
import { firstRecord, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

/** The host's prompt (host/app/unsaved-changes.tsx). */
const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes. Leave this page and discard them?';
const TITLE = 'form[data-resource-form="articles"] [name="title"]';

/** Opens the edit page of the tenant's first article and types into its title, as a person would. */
async function startEditing(page: Page, typed: string): Promise<number> {
  const article = await firstRecord(page, 'articles');
  await page.goto(`/resources/articles/${article.id}/edit`);
  await waitForSettledPage(page);
  await page.locator(TITLE).click();
  await page.keyboard.press('End');
  await page.keyboard.type(typed);
  return article.id;
}

/** Dismisses every dialog the page opens, and returns the list of their messages (which should stay empty). */
function dismissedDialogs(page: Page): string[] {
  const messages: string[] = [];
  page.on('dialog', (dialog) => {
    messages.push(dialog.message());
    void dialog.dismiss();
  });
  return messages;
}

/** Runs `action`, answers the dialog it must open, and returns that dialog. */
async function answerDialog(page: Page, action: () => Promise<unknown>, accept: boolean): Promise<Dialog> {
  const dialog = page.waitForEvent('dialog', { timeout: SLOT_TIMEOUT_MS });
  const done = action().catch(() => undefined);
  const shown = await dialog;
  if (accept) await shown.accept();
  else await shown.dismiss();
  await done;
  return shown;
}

describe('unsaved changes', () => {
  it('are asked about before an in-app navigation, a reload or signing out loses them', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    const id = await startEditing(page, ' (edited)');
    const editPath = `/resources/articles/${id}/edit`;
    const typed = await page.locator(TITLE).inputValue();
    expect(typed).toMatch(/ \(edited\)$/);

    // A link of the app: staying keeps the page and the text.
    const toList = () => page.locator('nav.nav').getByRole('link', { name: 'Articles' }).click();
    const asked = await answerDialog(page, toList, false);
    expect(asked.type()).toBe('confirm');
    expect(asked.message()).toBe(UNSAVED_CHANGES_MESSAGE);
    expect(new URL(page.url()).pathname).toBe(editPath);
    expect(await page.locator(TITLE).inputValue()).toBe(typed);

    // Back in history: the same question.
    await answerDialog(page, () => page.evaluate(() => history.back()), false);
    expect(new URL(page.url()).pathname).toBe(editPath);
    expect(await page.locator(TITLE).inputValue()).toBe(typed);

    // A reload: the browser's own prompt; staying keeps this very document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    const reload = await answerDialog(page, () => page.evaluate(() => location.reload()), false);
    expect(reload.type()).toBe('beforeunload');
    expect(await page.evaluate(() => (window as { sameDocument?: boolean }).sameDocument)).toBe(true);
    expect(await page.locator(TITLE).inputValue()).toBe(typed);

    // Signing out: staying keeps the session too.
    const signOut = () => page.getByRole('button', { name: 'Sign out' }).click();
    expect((await answerDialog(page, signOut, false)).message()).toBe(UNSAVED_CHANGES_MESSAGE);
    expect(new URL(page.url()).pathname).toBe(editPath);
    expect((await fetchInPage<unknown>(page, '/me')).status).toBe(200);

    // Leaving on purpose: no second question, and the text is gone with the page.
    await answerDialog(page, toList, true);
    await page.waitForURL((url) => url.pathname === '/resources/articles');
    await waitForSettledPage(page);
    const stored = await fetchInPage<RecordPayload>(page, `/api/resources/articles/records/${id}`);
    expect(stored.body.record.title).not.toBe(typed);
  });

  it('are not asked about once saved, nor on a page without a form', async () => {
    const { page } = await suite.newPage();
    const dialogs = dismissedDialogs(page);
    await signIn(page);
    await startEditing(page, ' (saved)');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.locator('form[data-resource-form] [role="status"]').getByText('Saved.').waitFor();
    await page.locator('nav.nav').getByRole('link', { name: 'Authors' }).click();
    await page.waitForURL((url) => url.pathname === '/resources/authors');
    await page.reload();
    await waitForSettledPage(page);
    expect(dialogs).toEqual([]);
  });

  it('survive the session ending mid-edit: sign in again, and the typed text is back on the same record', async () => {
    const { page } = await suite.newPage();
    const dialogs = dismissedDialogs(page);
    await signIn(page);
    const id = await startEditing(page, ' — kept across sign-in');
    const typed = await page.locator(TITLE).inputValue();

    // The session ends (expired, or signed out in another tab): the next Save is refused with 401.
    await page.context().clearCookies();
    const [refused] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'PUT'),
      page.getByRole('button', { name: 'Save' }).click(),
    ]);
    expect(refused.status()).toBe(401);
    await page.waitForURL((url) => url.pathname === '/login', { timeout: SLOT_TIMEOUT_MS });
    await page
      .getByRole('status')
      .getByText('Your session has ended. Sign in again to continue where you left off.')
      .waitFor();
    // Sent to sign in by the server, not by the user: nothing to ask.
    expect(dialogs).toEqual([]);

    // Meanwhile a colleague saves another field of the record: the kept draft must not put its old value back.
    const colleague = (await suite.newPage()).page;
    await signIn(colleague);
    const before = await fetchInPage<RecordPayload>(colleague, `/api/resources/articles/records/${id}`);
    const theirBody = `${String(before.body.record.body)} (their paragraph)`;
    const theirs = await fetchInPage<RecordPayload>(colleague, `/api/resources/articles/records/${id}`, {
      method: 'PUT',
      body: { body: theirBody },
    });
    expect(theirs.status).toBe(200);

    await signIn(page);
    await page.waitForURL((url) => url.pathname === `/resources/articles/${id}/edit`, { timeout: SLOT_TIMEOUT_MS });
    await page.locator(TITLE).waitFor();
    expect(await page.locator(TITLE).inputValue()).toBe(typed);
    await page
      .getByText('Your unsaved changes were kept while your session ended or changed. Review them, then save.')
      .waitFor();

    const [saved] = await Promise.all([
      page.waitForResponse((response) => response.request().method() === 'PUT'),
      page.getByRole('button', { name: 'Save' }).click(),
    ]);
    expect(saved.status()).toBe(200);
    // Only the field typed in was sent, expecting the value it was changed from.
    expect(Object.keys(saved.request().postDataJSON() as object).sort()).toEqual([UNCHANGED_FIELDS_KEY, 'title']);
    const stored = await fetchInPage<RecordPayload>(page, `/api/resources/articles/records/${id}`);
    expect(stored.body.record.title).toBe(typed);
    expect(stored.body.record.body).toBe(theirBody);

    // Kept once: opening the record again shows what is stored, with no leftover draft.
    await page.goto(`/resources/articles/${id}/edit`);
    await waitForSettledPage(page);
    expect(await page.locator(TITLE).inputValue()).toBe(typed);
    expect(await page.getByText('Your unsaved changes were kept').count()).toBe(0);
    // The tab keeps other things there (the inspector's record of the pages it showed), but no draft.
    const keys = await page.evaluate(() => Object.keys(sessionStorage));
    expect(keys.filter((key) => key.startsWith(TAB_DRAFT_KEY_PREFIX))).toEqual([]);
  });

  it('make one record of a create whose answer was lost, though the session ended before Create was pressed again', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.goto('/resources/authors/new');
    await waitForSettledPage(page);
    const name = `Lost answer ${Date.now()}`;
    await page.locator('form[data-resource-form="authors"] [name="title"]').fill(name);
    await page.locator('form[data-resource-form="authors"] [name="label"]').fill('once');

    // The server makes the record, but its answer never reaches the page (the connection dropped).
    await page.route('**/api/resources/authors/records', async (route) => {
      if (route.request().method() !== 'POST') return route.continue();
      const made = await route.fetch();
      expect(made.status()).toBe(201);
      await route.abort('connectionreset');
    });
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('The server did not answer: the record may or may not be created.').waitFor();
    await page.unroute('**/api/resources/authors/records');

    // The session ends before Create is pressed again (signed out elsewhere): the next request is refused.
    await page.context().clearCookies();
    await page.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL((url) => url.pathname === '/login', { timeout: SLOT_TIMEOUT_MS });
    await signIn(page);
    await page.waitForURL((url) => url.pathname === '/resources/authors/new', { timeout: SLOT_TIMEOUT_MS });
    await page.getByText('Your unsaved changes were kept while your session ended or changed.').waitFor();

    // Pressed again: the create the server made first, not a second record.
    const [answered] = await Promise.all([
      page.waitForResponse(
        (response) =>
          response.request().method() === 'POST' &&
          new URL(response.url()).pathname === '/api/resources/authors/records',
      ),
      page.getByRole('button', { name: 'Create' }).click(),
    ]);
    expect(answered.status()).toBe(201);
    expect(answered.headers()['idempotent-replayed']).toBe('true');
    const search = await fetchInPage<{ records: Array<{ title: string }> }>(
      page,
      `/api/resources/authors/records?search=${encodeURIComponent(name)}`,
    );
    expect(search.body.records.filter((record) => record.title === name)).toHaveLength(1);
  });
});
