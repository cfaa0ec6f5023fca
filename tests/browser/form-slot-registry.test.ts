import type { RecordListPayload } from '../../shared';
import { startFixtureServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { componentSelector, fetchInPage, SLOT_TIMEOUT_MS, waitForSlot } from '../../testing/system/slot-page';

jest.setTimeout(60_000);

const SLOT_FAILURE_LOG = '[slots] A slot could not be rendered; the rest of the page is unaffected.';
const RESOURCE = 'notes';
const FORM = `form[data-resource-form="${RESOURCE}"]`;

/**
 * A resource whose form holds two slots: ActivityTimeline, which team_records registers in the SlotComponentRegistry
 * only (it is not one of its formComponents), and SlugPreview, a global form component.
 */
const suite = useBrowserSuite({
  startServer: () =>
    startFixtureServer({
      resources: [
        {
          name: RESOURCE,
          label: 'Notes',
          fields: [
            { type: 'field', name: 'title', input: 'text', label: 'Title', required: true },
            { type: 'slot', component: 'ActivityTimeline', props: { limit: 3 } },
            { type: 'slot', component: 'SlugPreview', props: { source: 'title', target: 'label' } },
            { type: 'field', name: 'label', input: 'text', label: 'Label', required: true },
          ],
          records: { acme: [{ title: 'Fixture note', label: 'fixture-note' }] },
        },
      ],
    }),
});

describe('form slots', () => {
  it('do not render a component registered only in the slot registry, while a global form component renders', async () => {
    const { page, log } = await suite.newPage();
    await signIn(page);
    const records = (await fetchInPage<RecordListPayload>(page, `/api/resources/${RESOURCE}/records`)).body.records;
    const note = records[0];
    if (!note) throw new Error('The fixture server did not seed the note.');

    // On the view page, ActivityTimeline is an ordinary slot (resource-before-relations) and renders.
    await page.goto(`/resources/${RESOURCE}/${note.id}`);
    await waitForSlot(page, 'resource-before-relations', 'ActivityTimeline', { hasText: note.title });

    log.clear();
    await page.goto(`/resources/${RESOURCE}/${note.id}/edit`);
    const slugPreview = page.locator(`${FORM} [data-form-slot="SlugPreview"]`);
    await slugPreview.getByText('fixture-note').waitFor({ timeout: SLOT_TIMEOUT_MS });

    // In the form, ActivityTimeline is refused: marked failed, hidden (production), nothing of it rendered.
    const timeline = page.locator(`${FORM} [data-form-slot="ActivityTimeline"]`);
    await page.waitForFunction(
      (selector) => document.querySelector(selector)?.getAttribute('data-slot-failed') === 'not-a-form-component',
      `${FORM} [data-form-slot="ActivityTimeline"]`,
      { timeout: SLOT_TIMEOUT_MS },
    );
    expect(await timeline.isVisible()).toBe(false);
    expect(await page.locator(FORM).getByText('Newest in').count()).toBe(0);
    expect(await page.locator(`${FORM} ${componentSelector('ActivityTimeline')} .timeline`).count()).toBe(0);

    const failures = [];
    for (const message of log.console.filter(
      (entry) => entry.type === 'error' && entry.text.startsWith(SLOT_FAILURE_LOG),
    )) {
      failures.push((await message.args)[1]);
    }
    expect(failures).toEqual([
      expect.objectContaining({
        location: `form:${RESOURCE}`,
        component: 'ActivityTimeline',
        remote: 'team_records',
        kind: 'not-a-form-component',
      }),
    ]);
    // It was not even fetched for the form.
    expect(log.requests.filter((request) => request.path.includes('ActivityTimeline'))).toEqual([]);

    // The form around it works: the global form component reads and sets the form.
    await page.locator(`${FORM} [name="title"]`).fill('Renamed note');
    await slugPreview.locator('code').getByText('renamed-note', { exact: true }).waitFor();
    await slugPreview.getByRole('button', { name: 'Use as label' }).click();
    expect(await page.locator(`${FORM} [name="label"]`).inputValue()).toBe('renamed-note');
    expect(log.pageErrors).toEqual([]);
  });
});
