import { VIEWER_CANNOT_CHANGE_RECORDS, type ErrorBody } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { runCommand } from '../../testing/system/npm-command';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage, SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';
import { firstRecord, waitForSettledPage } from '../../testing/system/staff-pages';
import { tenantSwitchAnswer, tenantSwitcher } from '../../testing/system/tenant-switch';

jest.setTimeout(90_000);

const suite = useBrowserSuite();
const FORM = 'form[data-resource-form="articles"]';

/**
 * A viewer (`npm run user:add -- <name> --role viewer`) on the real server, in Chromium: the record pages say why
 * the account cannot save instead of offering Save, New, Delete or bulk actions, and the API refuses the change.
 */
it("tells a viewer on the record pages why it cannot save, and the API refuses the viewer's change", async () => {
  const password = 'a viewer password of some length';
  await runCommand(suite.server, ['user:add', '--', 'vera', '--tenant', 'acme', '--role', 'viewer'], `${password}\n`);
  const { page, log } = await suite.newPage();
  await signIn(page, { username: 'vera', password });
  const article = await firstRecord(page, 'articles');

  // An edit address gives a viewer the record's read view, saying why, rather than a form of disabled fields.
  await page.goto(`/resources/articles/${article.id}/edit`);
  const notice = page.locator('[data-edit-refused]');
  await notice.waitFor({ timeout: SLOT_TIMEOUT_MS });
  expect(await notice.innerText()).toContain(VIEWER_CANNOT_CHANGE_RECORDS);
  expect(await notice.isVisible()).toBe(true);
  expect(await page.locator(FORM).count()).toBe(0);
  expect(await page.locator('[data-field="title"] dd').innerText()).toBe(article.title);

  await page.goto(`/resources/articles/${article.id}`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
  expect(await page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);

  await page.goto('/resources/articles');
  await page.locator('[data-read-only-role]').getByText(VIEWER_CANNOT_CHANGE_RECORDS).waitFor();
  expect(await page.getByRole('link', { name: 'New', exact: true }).count()).toBe(0);
  expect(await page.getByRole('button', { name: /^Delete/ }).count()).toBe(0);
  // Rows to read, not to change: no selection for bulk actions, no Edit link (named "Edit <title>" for editors).
  await page.locator('table tbody tr').first().waitFor();
  expect(await page.getByRole('link', { name: /^Edit/ }).count()).toBe(0);
  expect(await page.getByRole('checkbox', { name: /^Select / }).count()).toBe(0);

  await page.goto('/resources/articles/new');
  await page.locator('[data-read-only-role]').getByText(VIEWER_CANNOT_CHANGE_RECORDS).waitFor();
  expect(await page.locator(FORM).count()).toBe(0);

  const refused = await fetchInPage<ErrorBody>(page, `/api/resources/articles/records/${article.id}`, {
    method: 'PUT',
    body: { title: 'Changed by a viewer' },
  });
  expect(refused).toEqual({
    status: 403,
    body: { error: { code: 'forbidden', message: VIEWER_CANNOT_CHANGE_RECORDS } },
  });
  expect(log.pageErrors).toEqual([]);
});

/**
 * Roles per tenant (`--tenant acme --role operator --tenant globex --role viewer`): the shell follows the role of the
 * tenant the user works in now, at the switch, with no reload: Save and the operators' links in acme, the viewer's
 * notice in globex.
 */
it('offers an operator of acme who views globex the changes in acme only, following the tenant switch', async () => {
  const password = 'an operator password of some length';
  const args = [
    'user:add',
    '--',
    'tess',
    '--tenant',
    'acme',
    '--role',
    'operator',
    '--tenant',
    'globex',
    '--role',
    'viewer',
  ];
  await runCommand(suite.server, args, `${password}\n`);
  const { page, log } = await suite.newPage();
  await signIn(page, { username: 'tess', password });
  // In the side navigation: an article's title may say "releases" too.
  const navLink = (name: string) =>
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  await page.goto('/resources/articles');
  await waitForSettledPage(page);
  await page.getByRole('link', { name: 'New', exact: true }).waitFor();
  await navLink('Releases').waitFor();
  expect(await page.locator('[data-read-only-role]').count()).toBe(0);

  await tenantSwitcher(page).locator('select[name="tenant"]').selectOption('globex');
  const answer = tenantSwitchAnswer(page);
  await tenantSwitcher(page).getByRole('button', { name: 'Switch' }).click();
  expect((await answer).status()).toBe(200);
  await page
    .locator('[data-read-only-role]')
    .getByText(VIEWER_CANNOT_CHANGE_RECORDS)
    .waitFor({ timeout: SLOT_TIMEOUT_MS });
  expect(await page.getByRole('link', { name: 'New', exact: true }).count()).toBe(0);
  expect(await navLink('Releases').count()).toBe(0);
  expect(await navLink('Placements').count()).toBe(0);
  expect((await fetchInPage(page, '/api/remotes/releases')).status).toBe(403);
  expect(log.pageErrors).toEqual([]);
});
