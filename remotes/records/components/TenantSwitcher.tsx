import { useEffect, useId, useReducer, useState } from 'react';
import {
  canSwitchTenant,
  chosenTenant,
  HOST_BEFORE_LEAVE_EVENT,
  HOST_REFRESH_EVENT,
  HOST_SESSION_EVENT,
  postTenantSwitch,
  submitTenantSwitch,
  tenantName,
  tenantSwitchReducer,
  TENANT_SWITCH_IDLE,
  type CurrentUser,
  type HostBeforeLeaveDetail,
  type HostRefreshDetail,
  type HostSessionDetail,
  type MePayload,
  type TenantSwitchSteps,
} from '../../kit';
import { apiClient } from '../api-client';

type State = { phase: 'loading' } | { phase: 'ready'; me: CurrentUser } | { phase: 'failed'; message: string };

/** The host checks for unsaved changes when asked through its documented window event (it may refuse). */
function hostAllowsLeaving(): boolean {
  const detail: HostBeforeLeaveDetail = { reason: 'tenant-switch' };
  return window.dispatchEvent(new CustomEvent(HOST_BEFORE_LEAVE_EVENT, { cancelable: true, detail }));
}

/** Asks the host to reload the session and the slot data, which depend on the tenant. */
function askHostToRefresh(): void {
  const detail: HostRefreshDetail = { reason: 'tenant-switched' };
  window.dispatchEvent(new CustomEvent(HOST_REFRESH_EVENT, { detail }));
}

/**
 * Lists the signed-in user's tenants (GET /me) and switches the current one (POST /tenant), then asks the host to
 * reload the session and the slot data. It behaves as the host's own switcher does (the kit's tenant switch:
 * nothing switches until "Switch" is pressed, focus stays, unsaved changes are asked about, the outcome is
 * announced); with one tenant it names it.
 */
export function TenantSwitcher() {
  const [state, setState] = useState<State>({ phase: 'loading' });
  const [form, dispatch] = useReducer(tenantSwitchReducer, TENANT_SWITCH_IDLE);
  const id = useId();

  useEffect(() => {
    const controller = new AbortController();
    apiClient.get<MePayload>('/me', controller.signal).then(
      (payload) => setState({ phase: 'ready', me: payload.user }),
      (reason: unknown) => {
        if (!controller.signal.aborted) {
          setState({ phase: 'failed', message: reason instanceof Error ? reason.message : 'Could not load tenants.' });
        }
      },
    );
    return () => controller.abort();
  }, []);

  useEffect(() => {
    // The host's word on the session: a switch in another tab (one session for all tabs) is shown here too, so this
    // never names a tenant the session left, and switching back from here works.
    const onSession = (event: Event) => {
      const { user } = (event as CustomEvent<HostSessionDetail>).detail;
      if (user === null) return;
      setState({ phase: 'ready', me: user });
      dispatch({ type: 'session-changed' });
    };
    window.addEventListener(HOST_SESSION_EVENT, onSession);
    return () => window.removeEventListener(HOST_SESSION_EVENT, onSession);
  }, []);

  if (state.phase === 'loading')
    return <span className="tenant-switcher tenant-switcher--loading">Loading tenants…</span>;
  if (state.phase === 'failed') return <span className="tenant-switcher tenant-switcher--failed">{state.message}</span>;

  const { me } = state;
  if (!canSwitchTenant(me)) return <span className="tenant-switcher">Tenant: {tenantName(me, me.currentTenant)}</span>;
  const steps: TenantSwitchSteps = {
    confirmLeave: hostAllowsLeaving,
    switchTenant: async (tenant) => {
      const payload = await postTenantSwitch(apiClient, tenant);
      setState({ phase: 'ready', me: payload.user });
    },
    afterSwitch: askHostToRefresh,
  };

  return (
    <form
      className="tenant-switcher"
      onSubmit={(event) => {
        event.preventDefault();
        void submitTenantSwitch(me, form, steps, dispatch);
      }}
    >
      <label htmlFor={id} className="tenant-switcher__label">
        Tenant
      </label>
      <select
        id={id}
        name="tenant"
        value={chosenTenant(me, form)}
        onChange={(event) => dispatch({ type: 'chosen', tenant: event.target.value })}
      >
        {me.tenants.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>
            {tenant.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--ghost button--small" aria-disabled={form.switching}>
        Switch
      </button>
      <span className="visually-hidden" role="status">
        {form.announcement}
      </span>
      {form.error && (
        <span className="tenant-switcher__error" role="alert">
          {form.error}
        </span>
      )}
    </form>
  );
}
