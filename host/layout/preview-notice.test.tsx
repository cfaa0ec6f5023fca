import { act, fireEvent, render, screen } from '@testing-library/react';
import { createFakeApi } from '../../testing/host/fake-api';
import { ApiClientProvider, SlotRuntimeProvider, type SlotRuntime } from '../core';
import { PreviewNotice } from './preview-notice';

function renderNotice(previewedReleases: SlotRuntime['previewedReleases'], api = createFakeApi()) {
  const reload = jest.fn();
  render(
    <ApiClientProvider client={api.client}>
      <SlotRuntimeProvider runtime={{ previewedReleases }}>
        <PreviewNotice reload={reload} />
      </SlotRuntimeProvider>
    </ApiClientProvider>,
  );
  return { api, reload };
}

describe('PreviewNotice', () => {
  it('shows nothing while the session previews nothing', () => {
    renderNotice([]);
    expect(document.querySelector('[data-preview-notice]')).toBeNull();
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('says which releases the page runs as previews, and stops them all, then loads the page again', async () => {
    const api = createFakeApi({
      'DELETE /api/remotes/team_records/preview': { body: { remote: 'team_records', preview: null } },
      'DELETE /api/remotes/team_marketing/preview': { body: { remote: 'team_marketing', preview: null } },
    });
    const { reload } = renderNotice(
      [
        { remote: 'team_records', version: '2.1.0' },
        { remote: 'team_marketing', version: '7' },
      ],
      api,
    );
    expect(screen.getByText(/^This page runs/).textContent).toBe(
      'This page runs release 2.1.0 of team_records and release 7 of team_marketing, which your session previews: ' +
        'everyone else gets the releases in force.',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Stop previewing' })));
    expect(api.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([
      'DELETE /api/remotes/team_records/preview',
      'DELETE /api/remotes/team_marketing/preview',
    ]);
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('says why when the server refuses, and loads nothing again', async () => {
    const api = createFakeApi({
      'DELETE /api/remotes/team_records/preview': {
        status: 503,
        body: { error: { code: 'unavailable', message: 'The service is temporarily unavailable. Try again shortly.' } },
      },
    });
    const { reload } = renderNotice([{ remote: 'team_records', version: '2.1.0' }], api);
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Stop previewing' })));
    expect(screen.getByRole('alert').textContent).toBe(
      'The preview was not stopped: The service is temporarily unavailable. Try again shortly.',
    );
    expect(reload).not.toHaveBeenCalled();
    // Offered again.
    expect((screen.getByRole('button', { name: 'Stop previewing' }) as HTMLButtonElement).disabled).toBe(false);
  });
});
