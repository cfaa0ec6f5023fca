import '../../../testing/host/router-globals';
import { fireEvent, render, screen } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { SLOT_INSPECTOR_PATH } from '../../../shared';
import { createFakeApi } from '../../../testing/host/fake-api';
import { demoMe, renderAppAt } from '../../../testing/host/render-app';
import {
  isMissingFileError,
  MISSING_FILE_RELOAD_GUARD_MS,
  MISSING_FILE_RELOAD_KEY,
  PageErrorPage,
} from './page-error-page';

// The slot inspector's file "cannot be fetched", as after a deploy removed the old build's chunk.
jest.mock('../inspector/slot-inspector-page', () => {
  const error = new Error('Loading chunk 318 failed.\n(missing: http://localhost/assets/tool-page-slot-inspector.js)');
  error.name = 'ChunkLoadError';
  throw error;
});

function chunkLoadError(): Error {
  const error = new Error('Loading chunk 42 failed.\n(missing: http://localhost/assets/42.js)');
  error.name = 'ChunkLoadError';
  return error;
}

function Broken(): never {
  throw new Error('Cannot read properties of undefined (reading "title")');
}

/** A layout with its chrome, and the pages under an error element, as APP_ROUTES has them. */
function renderPages(path: string, reload: () => void, now: () => number) {
  const router = createMemoryRouter(
    [
      {
        element: (
          <div>
            <header>Admin chrome</header>
            <Outlet />
          </div>
        ),
        children: [
          {
            errorElement: <PageErrorPage reload={reload} now={now} />,
            children: [
              { path: '/broken', Component: Broken },
              {
                path: '/tool',
                lazy: () => Promise.reject(chunkLoadError()),
              },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  return render(<RouterProvider router={router} />);
}

beforeEach(() => {
  sessionStorage.clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
  jest.spyOn(console, 'warn').mockImplementation(() => undefined);
});

afterEach(() => jest.restoreAllMocks());

describe('PageErrorPage', () => {
  it('shows a page that throws as an error inside the layout, with its message, and reloads only when asked', async () => {
    const reload = jest.fn();
    renderPages('/broken', reload, () => 1_000);
    expect(await screen.findByRole('heading', { name: 'This page could not be shown' })).toBeTruthy();
    expect(screen.getByText('Admin chrome')).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The rest of the admin still works');
    expect(screen.getByText(/reading "title"/)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to the dashboard' }).getAttribute('href')).toBe('/');
    expect(reload).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Reload the page' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('reloads once for a missing file, then says so if the file is still missing, until the guard time has passed', async () => {
    const reload = jest.fn();
    const first = renderPages('/tool', reload, () => 1_000);
    expect(await screen.findByRole('status')).toBeTruthy();
    expect(screen.getByText('Admin chrome')).toBeTruthy();
    expect(reload).toHaveBeenCalledTimes(1);
    first.unmount();

    // The reloaded document asks for the same file and it is still missing: no second reload, an explanation.
    const second = renderPages('/tool', reload, () => 1_000 + MISSING_FILE_RELOAD_GUARD_MS - 1);
    expect(await screen.findByRole('heading', { name: 'This page could not be shown' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('A file of this page could not be loaded');
    expect(reload).toHaveBeenCalledTimes(1);
    second.unmount();

    renderPages('/tool', reload, () => 1_000 + MISSING_FILE_RELOAD_GUARD_MS + 1);
    await screen.findByRole('status');
    expect(reload).toHaveBeenCalledTimes(2);
  });

  it('does not reload without session storage to remember the reload in', async () => {
    jest.spyOn(Storage.prototype, 'getItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    const reload = jest.fn();
    renderPages('/tool', reload, () => 1_000);
    expect(await screen.findByRole('heading', { name: 'This page could not be shown' })).toBeTruthy();
    expect(reload).not.toHaveBeenCalled();
  });

  it('tells a file that could not be fetched from other errors', () => {
    expect(isMissingFileError(chunkLoadError())).toBe(true);
    expect(isMissingFileError(new Error('Loading CSS chunk 7 failed.\n(/assets/7.css)'))).toBe(true);
    expect(isMissingFileError(new TypeError('Failed to fetch dynamically imported module: /x.js'))).toBe(true);
    expect(isMissingFileError(new Error('boom'))).toBe(false);
    expect(isMissingFileError('Loading chunk 1 failed')).toBe(false);
  });
});

describe('the admin’s routes', () => {
  it('keep the header and navigation when a tool page’s file is missing, and reload to get the new build', async () => {
    const fake = createFakeApi({
      'GET /me': { body: demoMe([]) },
      'GET /meta': {
        body: {
          dashboards: [],
          modules: [{ name: 'content', label: 'Content', resources: [{ name: 'articles', label: 'Articles' }] }],
          slots: {},
        },
      },
    });
    renderAppAt(fake, SLOT_INSPECTOR_PATH);
    expect(await screen.findByRole('navigation', { name: 'Main' })).toBeTruthy();
    await screen.findByText('Loading the newest version of the admin…');
    expect(screen.getByRole('link', { name: 'Articles' })).toBeTruthy();
    // jsdom cannot reload a document (it says so on the console): what the page remembered shows it asked to.
    expect(JSON.parse(sessionStorage.getItem(MISSING_FILE_RELOAD_KEY) ?? 'null')).toMatchObject({
      address: SLOT_INSPECTOR_PATH,
    });
  });
});
