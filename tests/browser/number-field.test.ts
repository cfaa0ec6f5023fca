/**
 * A number field in a browser that writes decimals with a comma (de-DE): `3,5` is saved as 3.5, not 35 as
 * `<input type="number">` in an English page read it; a number with thousands separators is pointed out at once and
 * refused by the server, nothing saved.
 */
import type { RecordListPayload } from '../../shared';
import { startFixtureServer } from '../../testing/system/app-server';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { fetchInPage } from '../../testing/system/slot-page';
import { NOT_A_NUMBER_HINT } from '../../host/forms/number-box';

jest.setTimeout(60_000);

const RESOURCE = 'fees';
const FORM = `form[data-resource-form="${RESOURCE}"]`;

const suite = useBrowserSuite({
  startServer: () =>
    startFixtureServer({
      resources: [
        {
          name: RESOURCE,
          label: 'Fees',
          fields: [
            { type: 'field', name: 'title', input: 'text', label: 'Title', required: true },
            { type: 'field', name: 'label', input: 'text', label: 'Label', required: true },
            { type: 'field', name: 'amount', input: 'number', label: 'Amount' },
          ],
          records: { acme: [{ title: 'Half', label: 'half' }] },
        },
      ],
    }),
});

it('saves 3,5 typed in a German browser as 3.5, and refuses 1.234,56 at the field with nothing saved', async () => {
  const { page } = await suite.newPage({ locale: 'de-DE' });
  await signIn(page);
  const amounts = async () =>
    (await fetchInPage<RecordListPayload>(page, `/api/resources/${RESOURCE}/records`)).body.records.map((record) => [
      record.title,
      record.amount ?? null,
    ]);
  const [half] = (await fetchInPage<RecordListPayload>(page, `/api/resources/${RESOURCE}/records`)).body.records;
  const amount = page.locator(`${FORM} [name="amount"]`);
  const typeAmount = async (text: string) => {
    await page.goto(`/resources/${RESOURCE}/${half!.id}/edit`);
    await amount.fill('');
    await amount.pressSequentially(text);
  };

  await typeAmount('3,5');
  await page.locator(`${FORM} button[type="submit"]`).click();
  await page.locator(`${FORM} [role="status"]`).getByText('Saved.').waitFor();
  expect(await amounts()).toEqual([['Half', 3.5]]);

  await typeAmount('1.234,56');
  expect(await amount.getAttribute('aria-invalid')).toBe('true');
  await page.getByText(NOT_A_NUMBER_HINT).waitFor();
  await page.locator(`${FORM} button[type="submit"]`).click();
  await page.getByText('Must be a number.').first().waitFor();
  expect(await amounts()).toEqual([['Half', 3.5]]);
});
