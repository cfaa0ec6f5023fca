import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { RecordPayload } from '../../shared';
import { startAppServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { documentOrder, fetchInPage, SLOT_TIMEOUT_MS } from '../../testing/system/slot-page';
import { firstRecord } from '../../testing/system/staff-pages';

jest.setTimeout(60_000);

const RESOURCE = 'authors';
const FORM = `form[data-resource-form="${RESOURCE}"]`;

/**
 * A form slot placed by REMOTES_CONFIG's "forms" (no server code: the demo's authors form has no slot of its own)
 * on the real server, in Chromium: it renders among the fields where the file says, on the edit and the new page,
 * and what it writes into the form is saved with the record.
 */
const suite = useBrowserSuite({
  startServer: () =>
    startAppServer({
      prepare: async (dir) => {
        const file = path.join(dir, 'remotes.json');
        const forms = {
          [RESOURCE]: [
            { component: 'SlugPreview', props: { source: 'title', target: 'label' }, position: { after: 'title' } },
          ],
        };
        await writeFile(file, JSON.stringify({ remotes: [{ name: 'team_records', forms }] }));
        return { REMOTES_CONFIG: file };
      },
    }),
});

it('renders a configured form slot on the edit and new pages, and its value is saved with the form', async () => {
  const { page, log } = await suite.newPage();
  await signIn(page);
  const author = await firstRecord(page, RESOURCE);

  await page.goto(`/resources/${RESOURCE}/${author.id}/edit`);
  const slot = page.locator(`${FORM} [data-form-slot="SlugPreview"]`);
  await slot.getByText('Slug preview').waitFor({ timeout: SLOT_TIMEOUT_MS });
  // Right after the title field, before the label field.
  const [title, preview, label] = await documentOrder(page, [
    `${FORM} [name="title"]`,
    `${FORM} [data-form-slot="SlugPreview"]`,
    `${FORM} [name="label"]`,
  ]);
  expect(title! < preview! && preview! < label!).toBe(true);

  await page.locator(`${FORM} [name="title"]`).fill('Grace Brewster Hopper');
  await slot.locator('code').getByText('grace-brewster-hopper', { exact: true }).waitFor();
  await slot.getByRole('button', { name: 'Use as label' }).click();
  expect(await page.locator(`${FORM} [name="label"]`).inputValue()).toBe('grace-brewster-hopper');
  await page.locator(`${FORM} button[type="submit"]`).click();
  await page.locator(`${FORM} [role="status"]`).getByText('Saved.').waitFor();

  const saved = await fetchInPage<RecordPayload>(page, `/api/resources/${RESOURCE}/records/${author.id}`);
  expect(saved.body.record).toMatchObject({ title: 'Grace Brewster Hopper', label: 'grace-brewster-hopper' });

  await page.goto(`/resources/${RESOURCE}/new`);
  await page.locator(`${FORM} [data-form-slot="SlugPreview"]`).getByText('Slug preview').waitFor({
    timeout: SLOT_TIMEOUT_MS,
  });
  expect(log.pageErrors).toEqual([]);
});
