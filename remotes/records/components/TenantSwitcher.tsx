import { useEffect, useId, useState, type FormEvent } from 'react';
import {
  HOST_BEFORE_LEAVE_EVENT,
  HOST_REFRESH_EVENT,
  type HostBeforeLeaveDetail,
  type HostRefreshDetail,
  type MePayload,
  type TenantSwitchRequest,
} from '../../kit';
import { requestJson } from '../http';

type State = { phase: 'loading' } | { phase: 'ready'; me: MePayload['user'] } | { phase: 'failed'; message: string };

/**
 * Lists the signed-in user's tenants (GET /me) and switches the current one (POST /tenant), then asks the host to
 * reload the session and the slot data through the documented window event. Choosing in the list switches nothing
 * until "Switch" is pressed, so arrow keys only move the choice; nothing is disabled while it works, so focus stays
 * where it is; the host is asked first (it checks for unsaved changes), and the outcome is announced.
 */
export function TenantSwitcher() {
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [choice, setChoice] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const [announcement, setAnnouncement] = useState('');
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
  const current = me.tenants.find((tenant) => tenant.id === me.currentTenant);
  if (me.tenants.length < 2) {
    return <span className="tenant-switcher">Tenant: {current?.name ?? me.currentTenant}</span>;
  }
  const chosen = choice ?? me.currentTenant;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (switching || chosen === me.currentTenant) return;
    const leave: HostBeforeLeaveDetail = { reason: 'tenant-switch' };
    if (!window.dispatchEvent(new CustomEvent(HOST_BEFORE_LEAVE_EVENT, { cancelable: true, detail: leave }))) {
      setChoice(null);
      return;
    }
    setSwitching(true);
    setError(null);
    setAnnouncement('');
    try {
      const body: TenantSwitchRequest = { tenant: chosen };
      const payload = await requestJson<MePayload>('POST', '/tenant', body);
      setState({ phase: 'ready', me: payload.user });
      setChoice(null);
      const name = payload.user.tenants.find((tenant) => tenant.id === payload.user.currentTenant)?.name;
      setAnnouncement(`Switched to ${name ?? payload.user.currentTenant}.`);
      const detail: HostRefreshDetail = { reason: 'tenant-switched' };
      window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT, { detail }));
    } catch (reason) {
      setError(reason instanceof Error ? reason.message : 'Could not switch tenant.');
    } finally {
      setSwitching(false);
    }
  };

  return (
    <form className="tenant-switcher" onSubmit={(event) => void submit(event)}>
      <label htmlFor={id} className="tenant-switcher__label">
        Tenant
      </label>
      <select id={id} name="tenant" value={chosen} onChange={(event) => setChoice(event.target.value)}>
        {me.tenants.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>
            {tenant.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--ghost button--small" aria-disabled={switching}>
        Switch
      </button>
      <span className="visually-hidden" role="status">
        {announcement}
      </span>
      {error && (
        <span className="tenant-switcher__error" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
