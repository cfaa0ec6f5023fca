import { useEffect, useId, useState } from 'react';
import { HOST_REFRESH_EVENT, type HostRefreshDetail, type MePayload, type TenantSwitchRequest } from '../../../shared';
import { requestJson } from '../http';

type State = { phase: 'loading' } | { phase: 'ready'; me: MePayload['user'] } | { phase: 'failed'; message: string };

/**
 * Lists the signed-in user's tenants (GET /me) and switches the current one (POST /tenant), then asks the host to
 * reload the session and the slot data through the documented window event.
 */
export function TenantSwitcher() {
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [switching, setSwitching] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    requestJson<MePayload>('GET', '/me', undefined, controller.signal).then(
      (payload) => setState({ phase: 'ready', me: payload.user }),
      (reason: unknown) => {
        if (!controller.signal.aborted) {
          setState({ phase: 'failed', message: reason instanceof Error ? reason.message : 'Could not load tenants.' });
        }
      },
    );
    return () => controller.abort();
  }, []);

  if (state.phase === 'loading')
    return <span className="tenant-switcher tenant-switcher--loading">Loading tenants…</span>;
  if (state.phase === 'failed') return <span className="tenant-switcher tenant-switcher--failed">{state.message}</span>;

  const { me } = state;
  const switchTo = async (tenant: string) => {
    if (tenant === me.currentTenant) return;
    setSwitching(true);
    setError(null);
    try {
      const body: TenantSwitchRequest = { tenant };
      const payload = await requestJson<MePayload>('POST', '/tenant', body);
      setState({ phase: 'ready', me: payload.user });
      const detail: HostRefreshDetail = { reason: 'tenant-switched' };
      window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT, { detail }));
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : 'Could not switch tenant.');
    } finally {
      setSwitching(false);
    }
  };

  return (
    <div className="tenant-switcher">
      <label htmlFor={id} className="tenant-switcher__label">
        Tenant
      </label>
      <select
        id={id}
        name="tenant"
        value={me.currentTenant}
        disabled={switching || me.tenants.length < 2}
        onChange={(event) => void switchTo(event.target.value)}
      >
        {me.tenants.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>
            {tenant.name}
          </option>
        ))}
      </select>
      {error && (
        <span className="tenant-switcher__error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}
