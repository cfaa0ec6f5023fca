import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import {
  API_CLIENT_MESSAGES,
  HOST_BEFORE_LEAVE_EVENT,
  HOST_REFRESH_EVENT,
  HOST_SESSION_EVENT,
  type HostSessionDetail,
  type MePayload,
} from '../../kit';
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

/** A proxy's HTML page where JSON was expected: reading it as JSON fails, as `Response.json()` does. */
function proxyPage(status = 200) {
  return { ok: status >= 200 && status < 300, status, json: async () => JSON.parse('<!DOCTYPE html><html></html>') };
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

  it("follows the host's word on the session: a switch in another tab shows here, and switching back works", async () => {
    fetchMock.mockImplementation(async (url: string, init: RequestInit) => {
      if (url === '/me') return answer(200, me('acme'));
      if (url === '/tenant' && init.method === 'POST') return answer(200, me(JSON.parse(String(init.body)).tenant));
      return answer(404, {});
    });
    render(<TenantSwitcher />);
    const select = (await screen.findByLabelText('Tenant')) as HTMLSelectElement;
    expect(select.value).toBe('acme');

    // Another tab switched the one session to Globex; the host found out and says so.
    const detail: HostSessionDetail = { user: me('globex').user };
    act(() => {
      window.dispatchEvent(new CustomEvent(HOST_SESSION_EVENT, { detail }));
    });
    expect(select.value).toBe('globex');

    fireEvent.change(select, { target: { value: 'acme' } });
    fireEvent.click(screen.getByRole('button', { name: 'Switch' }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith('/tenant', expect.objectContaining({ body: '{"tenant":"acme"}' })),
    );
    await waitFor(() => expect(select.value).toBe('acme'));
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
    fireEvent.click(screen.getByRole('button', { name: 'Switch' }));
    await waitFor(() => expect(refreshed).toHaveBeenCalledTimes(1));
    expect((refreshed.mock.calls[0]?.[0] as CustomEvent).detail).toEqual({ reason: 'tenant-switched' });
    expect(fetchMock).toHaveBeenCalledWith(
      '/tenant',
      expect.objectContaining({ method: 'POST', body: '{"tenant":"globex"}' }),
    );
    expect(select.value).toBe('globex');
    expect(screen.getByRole('status').textContent).toBe('Switched to Globex.');
    window.removeEventListener(HOST_REFRESH_EVENT, refreshed);
  });

  it('switches nothing when only the choice changes (arrow keys), nor when the host keeps the page', async () => {
    fetchMock.mockImplementation(async (url: string) => (url === '/me' ? answer(200, me('acme')) : answer(404, {})));
    const asked: Event[] = [];
    const keepPage = (event: Event) => {
      asked.push(event);
      event.preventDefault();
    };
    window.addEventListener(HOST_BEFORE_LEAVE_EVENT, keepPage);

    render(<TenantSwitcher />);
    const select = (await screen.findByLabelText('Tenant')) as HTMLSelectElement;
    fireEvent.change(select, { target: { value: 'globex' } });
    expect(select.value).toBe('globex');
    expect(asked).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Switch' }));
    expect(asked).toHaveLength(1);
    expect((asked[0] as CustomEvent).detail).toEqual({ reason: 'tenant-switch' });
    // The host kept the page: no request, and the list shows the current tenant again.
    await waitFor(() => expect(select.value).toBe('acme'));
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual(['/me']);
    window.removeEventListener(HOST_BEFORE_LEAVE_EVENT, keepPage);
  });

  it.each([
    [
      'refused',
      answer(403, { error: { code: 'forbidden', message: 'You do not belong to that tenant.' } }),
      'You do not belong to that tenant.',
    ],
    ['answered by a page that is not JSON (a proxy’s)', proxyPage(), API_CLIENT_MESSAGES.unreadableChange],
  ])('shows why when the switch is %s, without asking for a refresh', async (_case, switched, said) => {
    fetchMock.mockImplementation(async (url: string) => (url === '/me' ? answer(200, me('acme')) : switched));
    const refreshed = jest.fn();
    window.addEventListener(HOST_REFRESH_EVENT, refreshed);
    render(<TenantSwitcher />);
    fireEvent.change(await screen.findByLabelText('Tenant'), { target: { value: 'globex' } });
    fireEvent.click(screen.getByRole('button', { name: 'Switch' }));
    expect((await screen.findByRole('alert')).textContent).toBe(said);
    expect(refreshed).not.toHaveBeenCalled();
    window.removeEventListener(HOST_REFRESH_EVENT, refreshed);
  });

  it('says the tenants could not be loaded when GET /me answers a page that is not JSON (a proxy’s)', async () => {
    fetchMock.mockImplementation(async () => proxyPage());
    render(<TenantSwitcher />);
    expect(await screen.findByText(API_CLIENT_MESSAGES.unreadable)).toBeTruthy();
    expect(screen.queryByText('Loading tenants…')).toBeNull();
  });
});
