import type { RecordPayload } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { firstRecord, waitForSettledPage } from '../../testing/system/staff-pages';

jest.setTimeout(60_000);

const suite = useBrowserSuite();
const FORM = 'form[data-resource-form="articles"]';

/**
 * Two tabs edit one record, each opened before the other saved: a save sends only the fields its form changed, so
 * the later save keeps the earlier one's change instead of writing back the value its form had loaded.
 */
it("keeps both tabs' changes to different fields of one record, and shows the other's after saving", async () => {
  const { first, second, article, log } = await titleSavedInFirstOfTwoTabs();

  // The second tab still shows the old title; it changes the label only.
  expect(await second.locator(`${FORM} [name="title"]`).inputValue()).toBe(article.title);
  await second.locator(`${FORM} [name="label"]`).fill('Second tab label');
  await second.getByRole('button', { name: 'Save' }).click();
  await second.locator(`${FORM} [role="status"]`).getByText('Saved.').waitFor();
  expect(await second.locator(`${FORM} [name="title"]`).inputValue()).toBe(`${article.title} (first tab)`);

  const stored = await fetchInPage<RecordPayload>(first, `/api/resources/articles/records/${article.id}`);
  expect(stored.body.record).toMatchObject({ title: `${article.title} (first tab)`, label: 'Second tab label' });
  expect(log.pageErrors).toEqual([]);
});

it('asks before a save replaces the title another tab saved meanwhile, and keeps theirs when asked to', async () => {
  const { first, second, article, log } = await titleSavedInFirstOfTwoTabs();

  await second.locator(`${FORM} [name="title"]`).fill(`${article.title} (second tab)`);
  await second.getByRole('button', { name: 'Save' }).click();
  const conflict = second.locator(`${FORM} [data-save-conflict]`);
  await conflict.getByText('someone saved another value of Title', { exact: false }).waitFor();
  await conflict.getByRole('button', { name: 'Use their value' }).click();
  expect(await second.locator(`${FORM} [name="title"]`).inputValue()).toBe(`${article.title} (first tab)`);
  // The focus is on the field that took their value (on a phone, in view), not back at the page's top.
  expect(await second.evaluate(() => document.activeElement?.getAttribute('name'))).toBe('title');

  const stored = await fetchInPage<RecordPayload>(first, `/api/resources/articles/records/${article.id}`);
  expect(stored.body.record.title).toBe(`${article.title} (first tab)`);
  expect(log.pageErrors).toEqual([]);
});

/** Two tabs on one article's edit form, opened before either saved; then the first saves a new title. */
async function titleSavedInFirstOfTwoTabs() {
  const { page: first, log } = await suite.newPage();
  await signIn(first);
  const article = await firstRecord(first, 'articles');
  const second = await first.context().newPage();
  for (const tab of [first, second]) {
    await tab.goto(`/resources/articles/${article.id}/edit`);
    await waitForSettledPage(tab);
  }
  await first.locator(`${FORM} [name="title"]`).fill(`${article.title} (first tab)`);
  await first.getByRole('button', { name: 'Save' }).click();
  await first.locator(`${FORM} [role="status"]`).getByText('Saved.').waitFor();
  return { first, second, article, log };
}
