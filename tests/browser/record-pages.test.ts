import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import type { RecordListPayload, RecordPayload, ResourcePayload, ResourceRecord } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { reactPropsBelow } from '../../testing/system/react-props';
import { saveScreenshot } from '../../testing/system/screenshots';
import { signIn } from '../../testing/system/sign-in';
import {
  componentSelector,
  componentsAt,
  documentOrder,
  fetchInPage,
  locationSelector,
  SLOT_TIMEOUT_MS,
  waitForSlot,
} from '../../testing/system/slot-page';

jest.setTimeout(60_000);

const suite = useBrowserSuite();

const RESOURCE = 'articles';
const FORM = `form[data-resource-form="${RESOURCE}"]`;

/** Signs in and picks an article that has a group and an author, as the API returns it. */
async function signInAndPickArticle(page: Page): Promise<RecordPayload> {
  await signIn(page);
  const list = await fetchInPage<RecordListPayload>(page, `/api/resources/${RESOURCE}/records`);
  expect(list.status).toBe(200);
  const candidates = list.body.records.filter((record) => typeof record.group === 'string');
  for (const candidate of candidates) {
    const payload = await fetchInPage<RecordPayload>(page, `/api/resources/${RESOURCE}/records/${candidate.id}`);
    if (payload.body.relations.some((relation) => relation.records.length > 0)) return payload.body;
  }
  throw new Error('The demo data has no article with a group and a related author.');
}

/** The record props a resource action slot got, checked against the API's record. */
async function expectActionContext(
  page: Page,
  location: 'resource-page-actions' | 'resource-edit-actions',
  component: string,
  record: ResourceRecord,
) {
  const props = await reactPropsBelow(page, componentSelector(component, location), 'resourceId');
  expect(props).not.toBeNull();
  expect(props?.resource).toBe(RESOURCE);
  expect(props?.resourceId).toBe(record.id);
  expect(typeof props?.resourceId).toBe('number');
  expect(props?.record).toEqual(record);
  expect(props?.record).toMatchObject({ title: record.title, label: record.label, group: record.group });
}

/** What CopyLinkAction put on the clipboard, or showed to copy by hand where the clipboard is refused. */
async function copiedLink(page: Page, location: 'resource-page-actions' | 'resource-edit-actions'): Promise<string> {
  const slot = page.locator(componentSelector('CopyLinkAction', location));
  await slot.getByRole('button').click();
  const manual = slot.locator('input[aria-label="Record link"]');
  await Promise.race([
    slot.getByText('Link copied', { exact: true }).waitFor({ timeout: SLOT_TIMEOUT_MS }),
    manual.waitFor({ timeout: SLOT_TIMEOUT_MS }),
  ]);
  if ((await manual.count()) > 0) return manual.inputValue();
  return page.evaluate(() => navigator.clipboard.readText());
}

describe('record view page', () => {
  it('gives resource-page-actions the API record, renders no edit actions, and surrounds the relations', async () => {
    const { page, log } = await suite.newPage({ acceptDownloads: true });
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.url });
    const { record, relations } = await signInAndPickArticle(page);

    await page.goto(`/resources/${RESOURCE}/${record.id}`);
    await waitForSlot(page, 'resource-page-actions', 'CopyLinkAction', { hasText: 'Copy link' });
    await waitForSlot(page, 'resource-page-actions', 'ExportJsonAction', { hasText: 'Export JSON' });
    expect(await componentsAt(page, 'resource-page-actions')).toEqual(['CopyLinkAction', 'ExportJsonAction']);
    await expectActionContext(page, 'resource-page-actions', 'CopyLinkAction', record);
    await expectActionContext(page, 'resource-page-actions', 'ExportJsonAction', record);
    await waitForSlot(page, 'resource-before-relations', 'ActivityTimeline', { hasText: record.title });
    await waitForSlot(page, 'resource-after-relations', 'RelatedHint');
    await saveScreenshot(page, 'record-view');

    // What the components do with that context: the export is the API's record, the link is the record's page.
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator(componentSelector('ExportJsonAction', 'resource-page-actions')).getByRole('button').click(),
    ]);
    expect(download.suggestedFilename()).toBe(`record-${RESOURCE}-${record.id}.json`);
    expect(JSON.parse(await readFile(await download.path(), 'utf8'))).toEqual(record);
    expect(await copiedLink(page, 'resource-page-actions')).toBe(`${suite.url}/resources/${RESOURCE}/${record.id}`);

    // resource-edit-actions is for the edit page only (spec rule 1).
    expect(await page.locator(locationSelector('resource-edit-actions')).count()).toBe(0);
    expect(await page.locator(componentSelector('CopyLinkAction')).count()).toBe(1);

    // before-relations, the relations block, after-relations.
    await waitForSlot(page, 'resource-before-relations', 'ActivityTimeline', { hasText: 'Newest in' });
    await waitForSlot(page, 'resource-after-relations', 'RelatedHint');
    const related = relations.find((relation) => relation.records.length > 0);
    await page
      .locator(`section.relations [data-relation="${related?.name}"]`)
      .getByText(related?.records[0]?.title ?? '', { exact: true })
      .waitFor({ timeout: SLOT_TIMEOUT_MS });
    expect(
      await documentOrder(page, [
        componentSelector('ActivityTimeline', 'resource-before-relations'),
        'section.relations',
        componentSelector('RelatedHint', 'resource-after-relations'),
      ]),
    ).toEqual([0, 1, 2]);
    // The timeline reads the tenant's records itself and marks this one.
    await page.locator(componentSelector('ActivityTimeline')).getByText(record.title, { exact: true }).waitFor();

    expect(log.pageErrors).toEqual([]);
    expect(log.consoleMatching(/\[slots\]/, ['error', 'warning'])).toEqual([]);
  });
});

describe('record edit page', () => {
  it('renders the edit actions and the form slots in place, and a form slot reads and sets a field that is saved', async () => {
    const { page, log } = await suite.newPage();
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.url });
    const { record } = await signInAndPickArticle(page);
    const definition = (await fetchInPage<ResourcePayload>(page, `/api/resources/${RESOURCE}`)).body.resource;

    await page.goto(`/resources/${RESOURCE}/${record.id}/edit`);
    await page.locator(`${FORM} [name="title"]`).waitFor({ timeout: SLOT_TIMEOUT_MS });

    // The reverse of the view page: edit actions, no page actions.
    await waitForSlot(page, 'resource-edit-actions', 'CopyLinkAction', { hasText: 'Copy link' });
    expect(await componentsAt(page, 'resource-edit-actions')).toEqual(['CopyLinkAction']);
    await expectActionContext(page, 'resource-edit-actions', 'CopyLinkAction', record);
    await waitForSlot(page, 'resource-before-form', 'EditingTips', { hasText: 'Editing tips' });
    await waitForSlot(page, 'resource-after-form', 'SaveNote');
    await page.locator(`${FORM} [data-form-slot="SearchSnippetPreview"]`).getByText('Search preview').waitFor();
    await saveScreenshot(page, 'record-edit');
    expect(await copiedLink(page, 'resource-edit-actions')).toBe(`${suite.url}/resources/${RESOURCE}/${record.id}`);
    expect(await page.locator(locationSelector('resource-page-actions')).count()).toBe(0);
    expect(await page.locator(componentSelector('ExportJsonAction')).count()).toBe(0);

    // resource-before-form, the form, resource-after-form.
    await waitForSlot(page, 'resource-before-form', 'EditingTips', { hasText: 'Editing tips' });
    await waitForSlot(page, 'resource-after-form', 'SaveNote', { hasText: 'earlier versions are not kept' });
    expect(
      await documentOrder(page, [
        componentSelector('EditingTips', 'resource-before-form'),
        FORM,
        componentSelector('SaveNote', 'resource-after-form'),
      ]),
    ).toEqual([0, 1, 2]);

    // The form's items in the definition's order, slots at their positions between the fields.
    await page
      .locator(`${FORM} [data-form-slot="SlugPreview"]`)
      .getByText('Slug preview')
      .waitFor({ timeout: SLOT_TIMEOUT_MS });
    await page.locator(`${FORM} [data-form-slot="SearchSnippetPreview"]`).getByText('Search preview').waitFor();
    const expectedItems = definition.fields.map((item) =>
      item.type === 'field' ? `field:${item.name}` : `slot:${item.component}`,
    );
    expect(expectedItems).toEqual([
      'field:title',
      'slot:SlugPreview',
      'field:slug',
      'field:label',
      'field:authorId',
      'field:group',
      'field:published',
      'field:featured',
      'field:body',
      'slot:SearchSnippetPreview',
    ]);
    const shownItems = await page
      .locator(`${FORM} [data-field], ${FORM} [data-form-slot]`)
      .evaluateAll((elements) =>
        elements.map((element) =>
          element instanceof HTMLElement && element.dataset.formSlot
            ? `slot:${element.dataset.formSlot}`
            : `field:${(element as HTMLElement).dataset.field}`,
        ),
      );
    expect(shownItems).toEqual(expectedItems);

    // The form slot gets `resource`, `formContext` (the form's values and a setter) and its own props.
    const slugProps = await reactPropsBelow(page, `${FORM} [data-form-slot="SlugPreview"]`, 'formContext');
    expect(slugProps).toMatchObject({
      resource: RESOURCE,
      source: 'title',
      target: 'slug',
      formContext: {
        mode: 'edit',
        errors: {},
        setValue: '[function]',
        values: { title: record.title, slug: record.slug, label: record.label, group: record.group },
      },
    });

    // Reading the form: the preview follows what is typed in the title.
    const newTitle = 'Hello from Chromium, 2025 edition!';
    const newSlug = 'hello-from-chromium-2025-edition';
    await page.locator(`${FORM} [name="title"]`).fill(newTitle);
    const slugPreview = page.locator(`${FORM} [data-form-slot="SlugPreview"]`);
    await slugPreview.locator('code').getByText(newSlug, { exact: true }).waitFor({ timeout: SLOT_TIMEOUT_MS });
    await page.locator(`${FORM} [data-form-slot="SearchSnippetPreview"]`).getByText(newTitle).waitFor();
    expect(await page.locator(`${FORM} [name="slug"]`).inputValue()).toBe(record.slug);

    // Setting a field: the slot's button writes the slug into the slug input.
    await slugPreview.getByRole('button', { name: 'Use as slug' }).click();
    await page.waitForFunction(
      ([selector, slug]) => (document.querySelector(selector) as HTMLInputElement | null)?.value === slug,
      [`${FORM} [name="slug"]`, newSlug] as const,
      { timeout: SLOT_TIMEOUT_MS },
    );
    await slugPreview.getByRole('button', { name: /is up to date/ }).waitFor();

    // Saved: the PUT carries the slot's value, and it survives a reload.
    const [saved] = await Promise.all([
      page.waitForResponse(
        (response) => response.request().method() === 'PUT' && response.url().endsWith(`/records/${record.id}`),
      ),
      page.locator(`${FORM} button[type="submit"]`).click(),
    ]);
    expect(saved.status()).toBe(200);
    expect(saved.request().postDataJSON()).toMatchObject({ title: newTitle, slug: newSlug });
    await page.locator(`${FORM} [role="status"]`).getByText('Saved.').waitFor();

    await page.reload();
    await page.locator(`${FORM} [name="slug"]`).waitFor({ timeout: SLOT_TIMEOUT_MS });
    expect(await page.locator(`${FORM} [name="slug"]`).inputValue()).toBe(newSlug);
    expect(await page.locator(`${FORM} [name="title"]`).inputValue()).toBe(newTitle);
    const after = await fetchInPage<RecordPayload>(page, `/api/resources/${RESOURCE}/records/${record.id}`);
    expect(after.body.record).toMatchObject({
      title: newTitle,
      slug: newSlug,
      label: record.label,
      group: record.group,
    });

    expect(log.pageErrors).toEqual([]);
    expect(log.consoleMatching(/\[slots\]/, ['error', 'warning'])).toEqual([]);
  });
});
