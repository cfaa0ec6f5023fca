import type { Request } from 'playwright-core';
import { SLOT_INSPECTOR_PATH } from '../../shared';
import { useBrowserSuite } from '../../testing/system/browser-suite';
import { signIn } from '../../testing/system/sign-in';

jest.setTimeout(90_000);

const suite = useBrowserSuite();

/** The slot inspector's own file (a tool page is a chunk of its own, loaded when opened). */
const INSPECTOR_CHUNK = '**/assets/tool-page-slot-inspector.*.js';

/**
 * A tab opened before a new version of the admin was deployed asks for the old build's files; a lazily loaded page
 * whose file is gone must not take the admin down. Here the server answers 404 for the slot inspector's file, as
 * once the new build replaced the old one.
 */
describe('a page whose file is missing', () => {
  it('reloads once for the newest build, then shows the error inside the admin, and loads once the file is back', async () => {
    const { page } = await suite.newPage();
    await signIn(page);
    await page.route(INSPECTOR_CHUNK, (route) => route.fulfill({ status: 404, body: 'Not found' }));
    const documents: Request[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'document') documents.push(request);
    });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Slot inspector' }).click();

    // The first failure reloads the page (the reloaded document asks for the file again, which is still missing).
    const heading = page.getByRole('heading', { name: 'This page could not be shown' });
    await heading.waitFor();
    expect(documents.map((request) => new URL(request.url()).pathname)).toEqual([SLOT_INSPECTOR_PATH]);
    expect(await page.getByRole('alert').textContent()).toContain('A file of this page could not be loaded');
    // Inside the admin: the header, the navigation and the session are still there.
    expect(await page.getByRole('navigation', { name: 'Main' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign out' }).isVisible()).toBe(true);

    // The new build is in place: reloading by hand shows the page.
    await page.unroute(INSPECTOR_CHUNK);
    await page.getByRole('button', { name: 'Reload the page' }).click();
    await page.getByRole('heading', { name: 'Slot inspector' }).waitFor();
    expect(documents).toHaveLength(2);
  });
});
