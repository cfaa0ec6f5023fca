import type { Page } from 'playwright-core';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';
import { waitForSettledPage } from '../../testing/system/staff-pages';

/**
 * The slot inspector as a screen reader presents it to staff who Tab through its tables: each control says which
 * slot it is about, as the table's other controls do, without the row around it being read.
 */
jest.setTimeout(60_000);

const suite = useBrowserSuite();

/** The names a screen reader gives the disclosure toggles (summary) inside `region`, from Chromium's own tree. */
async function disclosureNames(page: Page, region: string): Promise<string[]> {
  const tree = await page.accessibility.snapshot({ interestingOnly: false });
  const names: string[] = [];
  const visit = (node: NonNullable<typeof tree>, inside: boolean) => {
    const here = inside || (node.role === 'region' && node.name === region);
    if (here && node.role === 'DisclosureTriangle') names.push(node.name);
    for (const child of node.children ?? []) visit(child, here);
  };
  if (tree) visit(tree, false);
  return names;
}

describe('the slot inspector', () => {
  it('names each slot’s Props toggle after its slot and location, so a Tab through them tells them apart', async () => {
    const { page } = await suite.newPage({ viewport: { width: 1280, height: 900 } });
    await signIn(page);
    await page.goto('/inspect');
    await waitForSettledPage(page);
    await page.getByRole('heading', { name: 'Remotes' }).waitFor();

    const names = await disclosureNames(
      page,
      'Every slot of every location, as the server registered it, and its loads in the last hour',
    );
    // The demo's slots with props: the header's maintenance notice and a dozen more.
    expect(names.length).toBeGreaterThan(5);
    expect(names).toContain('Props of MaintenanceNotice at header-banner');
    expect(names.filter((name) => !name.startsWith('Props of '))).toEqual([]);
    expect(new Set(names).size).toBe(names.length);
  });
});
