import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { HOST_REFRESH_EVENT, type MePayload } from '../../../shared';
import { TenantSwitcher } from './TenantSwitcher';

const me = (currentTenant: string): MePayload => ({
  user: {
    username: 'admin',
    displayName: 'Admin',
    tenants: [
      { id: 'acme', name: 'Acme Corp' },
      { id: 'globex', name: 'Globex' },
    ],
    currentTenant,
  },
});

function answer(status: number, body: unknown) {
  return { ok: status >= 200 && status < 300, status, json: async () => body };
}

describe('TenantSwitcher', () => {
  const original = globalThis.fetch;
  let fetchMock: jest.Mock;
  beforeEach(() => {
    fetchMock = jest.fn();
    // The network edge: jsdom has no fetch.
    globalThis.fetch = fetchMock as unknown as typeof fetch;
  });
  afterEach(() => {
    globalThis.fetch = original;
  });

  it('lists the tenants of GET /me, switches with POST /tenant, then asks the host to refresh', async () => {
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      if (url === '/me') return answer(200, me('acme'));
      if (url === '/tenant' && init.method === 'POST') return answer(200, me(JSON.parse(String(init.body)).tenant));
      return answer(404, {});
    });
    const refreshed = jest.fn();
    window.addEventListener(HOST_REFRESH_EVENT, refreshed);

    render(<TenantSwitcher />);
    const select = (await screen.findByLabelText('Tenant')) as HTMLSelectElement;
    expect([...select.options].map((option) => option.textContent)).toEqual(['Acme Corp', 'Globex']);
    expect(select.value).toBe('acme');

    fireEvent.change(select, { target: { value: 'globex' } });
    await waitFor(() => expect(refreshed).toHaveBeenCalledTimes(1));
    expect((refreshed.mock.calls[0]?.[0] as CustomEvent).detail).toEqual({ reason: 'tenant-switched' });
    expect(fetchMock).toHaveBeenCalledWith(
      '/tenant',
      expect.objectContaining({ method: 'POST', body: '{"tenant":"globex"}' }),
    );
    expect(select.value).toBe('globex');
    window.removeEventListener(HOST_REFRESH_EVENT, refreshed);
  });

  it('shows the server message when the switch is refused, without asking for a refresh', async () => {
    fetchMock.mockImplementation(async (url: string) =>
      url === '/me'
        ? answer(200, me('acme'))
        : answer(403, { error: { code: 'forbidden', message: 'You do not belong to that tenant.' } }),
    );
    const refreshed = jest.fn();
    window.addEventListener(HOST_REFRESH_EVENT, refreshed);
    render(<TenantSwitcher />);
    fireEvent.change(await screen.findByLabelText('Tenant'), { target: { value: 'globex' } });
    expect((await screen.findByRole('alert')).textContent).toBe('You do not belong to that tenant.');
    expect(refreshed).not.toHaveBeenCalled();
    window.removeEventListener(HOST_REFRESH_EVENT, refreshed);
  });
});
