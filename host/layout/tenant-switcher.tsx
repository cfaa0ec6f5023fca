import { useId, useReducer } from 'react';
import {
  canSwitchTenant,
  chosenTenant,
  submitTenantSwitch,
  tenantSwitchReducer,
  TENANT_SWITCH_IDLE,
} from '../../shared';
import { useSession } from '../core';
import { useLeaveGuard } from '../hooks/unsaved-changes';

/**
 * The host's own tenant switcher, shown where the tenant-switcher slot renders nothing (its remote is off,
 * unreachable or failed), so a member of several tenants can always switch. It behaves as the remote's does
 * (shared/tenant-switch.ts); here unsaved changes are asked about through the host's leave guard, and the session
 * switches (and reloads what depends on the tenant) itself. Only the markup repeats the remote's: the host cannot
 * import a remote's component, and shared/ has no React.
 */
export function HostTenantSwitcher() {
  const session = useSession();
  const guard = useLeaveGuard();
  const id = useId();
  const [state, dispatch] = useReducer(tenantSwitchReducer, TENANT_SWITCH_IDLE);
  const user = session.user;
  if (!user || !canSwitchTenant(user)) return null;
  const steps = { confirmLeave: guard.confirmLeave, switchTenant: session.switchTenant };

  return (
    <form
      className="tenant-switcher"
      onSubmit={(event) => {
        event.preventDefault();
        void submitTenantSwitch(user, state, steps, dispatch);
      }}
      data-host-tenant-switcher=""
    >
      <label htmlFor={id} className="tenant-switcher__label">
        Tenant
      </label>
      <select
        id={id}
        name="tenant"
        value={chosenTenant(user, state)}
        onChange={(event) => dispatch({ type: 'chosen', tenant: event.target.value })}
      >
        {user.tenants.map((tenant) => (
          <option key={tenant.id} value={tenant.id}>
            {tenant.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--ghost button--small" aria-disabled={state.switching}>
        Switch
      </button>
      <span className="visually-hidden" role="status">
        {state.announcement}
      </span>
      {state.error && (
        <span className="tenant-switcher__error" role="alert">
          {state.error}
        </span>
      )}
    </form>
  );
}
