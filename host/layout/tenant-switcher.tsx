import { useId, useState, type FormEvent } from 'react';
import { ApiError, useSession } from '../core';
import { useLeaveGuard } from '../app/unsaved-changes';

/**
 * The host's own tenant switcher, shown where the tenant-switcher slot renders nothing (its remote is off,
 * unreachable or failed), so a member of several tenants can always switch. The same behaviour as the remote's:
 * choosing a tenant in the list switches nothing until "Switch" is pressed (arrow keys only move the choice),
 * nothing is disabled while it works (focus stays), unsaved changes are asked about first, and the outcome is
 * announced.
 */
export function HostTenantSwitcher() {
  const session = useSession();
  const guard = useLeaveGuard();
  const id = useId();
  const user = session.user;
  const [choice, setChoice] = useState<string | null>(null);
  const [switching, setSwitching] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [error, setError] = useState<string | null>(null);
  if (!user || user.tenants.length < 2) return null;
  const current = user.currentTenant;
  const chosen = choice ?? current;

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (switching || chosen === current) return;
    if (!guard.confirmLeave()) {
      setChoice(null);
      return;
    }
    setSwitching(true);
    setError(null);
    setAnnouncement('');
    try {
      await session.switchTenant(chosen);
      const name = user.tenants.find((tenant) => tenant.id === chosen)?.name ?? chosen;
      setAnnouncement(`Switched to ${name}.`);
      setChoice(null);
    } catch (reason) {
      setError(reason instanceof ApiError ? reason.message : 'Could not switch tenant.');
    } finally {
      setSwitching(false);
    }
  };

  return (
    <form className="tenant-switcher" onSubmit={(event) => void submit(event)} data-host-tenant-switcher="">
      <label htmlFor={id} className="tenant-switcher__label">
        Tenant
      </label>
      <select id={id} name="tenant" value={chosen} onChange={(event) => setChoice(event.target.value)}>
        {user.tenants.map((tenant) => (
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
