import type { RecordListPayload, RecordPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, SLOT_TIMEOUT_MS, waitForSlot } from '../../testing/system/slot-page';
import { firstRecord, focusedElement, waitForSettledPage } from '../../testing/system/staff-pages';
import { switchTenantByKeyboard, tenantSwitchAnswer, tenantSwitcher } from '../../testing/system/tenant-switch';
import { waitUntil } from '../../testing/server/wait-until';
import { runCommand } from '../../testing/system/npm-command';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

describe('the tenant switcher', () => {
  it('moves the choice with arrow keys without switching, switches on Switch, keeps focus and says so', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    const select = tenantSwitcher(page).locator('select[name="tenant"]');

    await select.focus();
    await page.keyboard.press('ArrowDown');
    expect(await select.inputValue()).toBe('globex');
    // What is shown is that nothing happens: no condition to wait for, so a window in which a switch on change (or
    // after a debounce) would have been sent. A slow machine can only make it miss that bug, never fail on its own.
    await page.waitForTimeout(500);
    expect(log.requestsTo('POST', '/tenant')).toEqual([]);
    expect((await focusedElement(page)).name).toBe('tenant');
    await page.keyboard.press('ArrowUp');
    expect(await select.inputValue()).toBe('acme');

    const answer = await switchTenantByKeyboard(page);
    expect(answer.status()).toBe(200);
    await tenantSwitcher(page).getByRole('status').getByText('Switched to Globex.').waitFor();
    await page.locator('[data-dashboard]').getByText('Globex').waitFor({ timeout: SLOT_TIMEOUT_MS });
    expect(await focusedElement(page)).toEqual({ tag: 'button', text: 'Switch', name: null });
    expect(await select.inputValue()).toBe('globex');
    expect(log.requestsTo('POST', '/tenant')).toHaveLength(1);
  });

  it('asks before discarding unsaved edits, and leaves a record page for its list in the new tenant', async () => {
    const { page, log } = await suite.newPage();
    const dialogs: string[] = [];
    let acceptDialogs = false;
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void (acceptDialogs ? dialog.accept() : dialog.dismiss());
    });
    await signIn(page);
    const article = await firstRecord(page, 'articles');
    await page.goto(`/resources/articles/${article.id}/edit`);
    await waitForSettledPage(page);
    const title = page.locator('form[data-resource-form] [name="title"]');
    await title.fill(`${article.title} (unsaved)`);

    // Staying: no switch, the list shows the current tenant again, the edits are there.
    await tenantSwitcher(page).locator('select[name="tenant"]').selectOption('globex');
    await tenantSwitcher(page).getByRole('button', { name: 'Switch' }).click();
    expect(dialogs).toEqual(['You have unsaved changes. Leave this page and discard them?']);
    expect(await tenantSwitcher(page).locator('select[name="tenant"]').inputValue()).toBe('acme');
    expect(log.requestsTo('POST', '/tenant')).toEqual([]);
    expect(await title.inputValue()).toBe(`${article.title} (unsaved)`);

    // Leaving: the record belongs to the old tenant, so the page becomes the resource's list in the new one.
    acceptDialogs = true;
    await tenantSwitcher(page).locator('select[name="tenant"]').selectOption('globex');
    const answer = tenantSwitchAnswer(page);
    await tenantSwitcher(page).getByRole('button', { name: 'Switch' }).click();
    expect((await answer).status()).toBe(200);
    await page.waitForURL((url) => url.pathname === '/resources/articles', { timeout: SLOT_TIMEOUT_MS });
    await waitForSettledPage(page);
    expect(await page.locator('h1').textContent()).toBe('Articles');
    expect(await page.getByText('Not found').count()).toBe(0);
    const globexArticle = await firstRecord(page, 'articles');
    await page.locator('main').getByRole('link', { name: globexArticle.title, exact: true }).waitFor();
    expect(dialogs).toHaveLength(2);

    // Without edits, nothing is asked.
    await page.goto(`/resources/articles/${globexArticle.id}`);
    await waitForSettledPage(page);
    await tenantSwitcher(page).locator('select[name="tenant"]').selectOption('acme');
    await tenantSwitcher(page).getByRole('button', { name: 'Switch' }).click();
    await page.waitForURL((url) => url.pathname === '/resources/articles', { timeout: SLOT_TIMEOUT_MS });
    expect(dialogs).toHaveLength(2);
  });
  it("gives a list filtered by the old tenant's author back only in that tenant, and never in the other", async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    const articles = await fetchInPage<RecordListPayload>(page, '/api/resources/articles/records');
    const article = articles.body.records.find((record) => typeof record.authorId === 'number');
    if (!article) throw new Error('No acme article has an author.');
    const filtered = `/resources/articles?filter.author=${String(article.authorId)}`;
    await page.goto(filtered);
    await waitForSettledPage(page);
    await page.locator(`[data-list-address="filter.author=${String(article.authorId)}"]`).waitFor();

    // In globex that author is nobody: the list is globex's own, as it was never left there (its first page).
    const switchTo = async (tenant: string) => {
      await tenantSwitcher(page).locator('select[name="tenant"]').selectOption(tenant);
      const answer = tenantSwitchAnswer(page);
      await tenantSwitcher(page).getByRole('button', { name: 'Switch' }).click();
      expect((await answer).status()).toBe(200);
    };
    await switchTo('globex');
    await page.waitForURL((url) => url.pathname === '/resources/articles' && url.search === '', {
      timeout: SLOT_TIMEOUT_MS,
    });
    await waitForSettledPage(page);
    const globexArticle = await firstRecord(page, 'articles');
    await page.locator('main').getByRole('link', { name: globexArticle.title, exact: true }).waitFor();
    expect(await page.getByText('(not found)').count()).toBe(0);

    // Back in acme, the list is as it was left there: filtered by its author.
    await switchTo('acme');
    await page.waitForURL((url) => `${url.pathname}${url.search}` === filtered, { timeout: SLOT_TIMEOUT_MS });
    await waitForSettledPage(page);
    await page.locator('main').getByRole('link', { name: article.title, exact: true }).waitFor();
    expect(log.pageErrors).toEqual([]);
  });

  it('refuses a save from a tab left on the old tenant after a switch in another tab, and changes nothing', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    const article = await firstRecord(page, 'articles');
    await page.goto(`/resources/articles/${article.id}/edit`);
    await waitForSettledPage(page);
    await page.locator('form[data-resource-form] [name="title"]').fill(`${article.title} (edited in the acme tab)`);

    // A second tab of the same browser (one session) switches to globex; this one still shows acme.
    const other = await page.context().newPage();
    await other.goto('/');
    expect((await fetchInPage(other, '/tenant', { method: 'POST', body: { tenant: 'globex' } })).status).toBe(200);
    await other.close();

    // Refused (409 tenant_changed): the page follows the session to Globex, keeping the edit as a draft of this tab.
    await page.getByRole('button', { name: 'Save' }).click();
    await page
      .getByRole('status')
      .getByText(
        'Your session now works in Globex: it was switched from Acme Corp in another tab. Your unsaved changes were ' +
          'kept in this tab: switch back to Acme Corp and open the same form again to save them.',
      )
      .waitFor();
    expect(log.requestsTo('PUT', `/api/resources/articles/records/${article.id}`)).toHaveLength(1);

    // Neither tenant changed: the record is as it was in acme, and globex has no record of that title.
    expect((await fetchInPage(page, '/tenant', { method: 'POST', body: { tenant: 'acme' } })).status).toBe(200);
    const kept = await fetchInPage<RecordPayload>(page, `/api/resources/articles/records/${article.id}`);
    expect(kept.body.record.title).toBe(article.title);
    // Back in Acme Corp, the same form gives the kept edit back.
    await page.goto(`/resources/articles/${article.id}/edit`);
    await waitForSettledPage(page);
    await waitUntil(
      async () =>
        (await page.locator('form[data-resource-form] [name="title"]').inputValue()) ===
        `${article.title} (edited in the acme tab)`,
      SLOT_TIMEOUT_MS,
      'the kept edit in the form',
    );
    expect(log.pageErrors).toEqual([]);
  });

  it("follows a switch made in another tab, so that this tab's switcher names the session's tenant and switches back", async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    const select = tenantSwitcher(page).locator('select[name="tenant"]');
    expect(await select.inputValue()).toBe('acme');

    // A second tab of the same browser (one session) switches to Globex with its switcher.
    const other = await page.context().newPage();
    await other.goto('/');
    await waitForSlot(other, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Acme Corp' });
    expect((await switchTenantByKeyboard(other)).status()).toBe(200);

    // This tab hears of it and says Globex, as the session does. The other tab stays open meanwhile: it tells the
    // others once it has read the session again, after the switch's answer.
    await waitUntil(
      async () => (await select.inputValue()) === 'globex',
      SLOT_TIMEOUT_MS,
      'the switcher saying globex',
    );
    await other.close();
    // Switching back from here switches.
    await select.selectOption('acme');
    const answer = tenantSwitchAnswer(page);
    await tenantSwitcher(page).getByRole('button', { name: 'Switch' }).click();
    expect((await answer).status()).toBe(200);
    await tenantSwitcher(page).getByRole('status').getByText('Switched to Acme Corp.').waitFor();
    expect(log.pageErrors).toEqual([]);
  });
  it("follows the account's removal from the tenant the page shows, never listing another tenant's records under its name", async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    const acmeArticle = await firstRecord(page, 'articles');
    await page.goto('/resources/articles');
    await waitForSettledPage(page);
    await page.getByRole('link', { name: acmeArticle.title, exact: true }).waitFor();

    // An operator takes the account out of Acme Corp while the page shows its articles.
    await runCommand(suite.server, ['user:add', '--', 'admin', '--keep-password', '--tenant', 'globex']);
    const reads = log.requestsTo('GET', '/api/resources/articles/records').length;

    // The next read (sorting the list) is answered in Globex, where the server fell back: the page follows the
    // session and says why, rather than show Globex's articles under Acme Corp's name.
    await page.getByRole('button', { name: 'Title', exact: true }).click();
    await page
      .getByRole('status')
      .getByText('Your account no longer belongs to Acme Corp: your session now works in Globex.')
      .waitFor();
    await page.getByRole('link', { name: 'Globex quarterly results', exact: true }).waitFor();
    expect(await page.getByRole('link', { name: acmeArticle.title, exact: true }).count()).toBe(0);
    await waitForSlot(page, 'tenant-switcher', 'TenantSwitcher', { hasText: 'Globex' });
    expect(log.requestsTo('GET', '/api/resources/articles/records').length).toBeGreaterThan(reads);
    expect(log.pageErrors).toEqual([]);
  });
});
