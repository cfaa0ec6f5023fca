import { Link } from 'react-router-dom';
import { canSwitchTenant, SlotLocation, type CurrentUser } from '../../shared';
import { AppSlotRenderer, useSession, useSlotData } from '../core';
import { useLayoutSlotsTakenBelow } from './late-slots-below';
import { APP_NAME } from './page-heading';
import { HostTenantSwitcher } from './tenant-switcher';
import { useSignOut } from './use-sign-out';

/**
 * Whether the tenant switcher's row is held open on a phone before anything fills it: when a slot is placed there,
 * or when the user has tenants to switch between (the host's own switcher fills it if the slot does not). Otherwise
 * the switcher, arriving with its remote, would push the user's name and Sign out onto a new row.
 */
function tenantRowReserved(user: CurrentUser, placed: number): boolean {
  return placed > 0 || canSwitchTenant(user);
}

/**
 * Brand, the header banner slot, and for signed-in users the tenant switcher slot (the host's own switcher where it
 * renders nothing) and the sign-out button.
 */
export function Header() {
  const session = useSession();
  const { slots } = useSlotData();
  const { signOut, signingOut } = useSignOut();
  const { user } = session;
  // Taken by the sign-in page when its slots came after its form was drawn: it renders the banner below the form.
  const bannerTakenBelow = useLayoutSlotsTakenBelow();

  return (
    <header className="header">
      {!bannerTakenBelow && <AppSlotRenderer location={SlotLocation.HEADER_BANNER} className="header__banner" />}
      <div className="header__bar">
        <Link to="/" className="header__brand">
          <span className="header__logo" aria-hidden="true">
            ◆
          </span>
          {APP_NAME}
        </Link>
        {user && (
          <div className="header__session">
            <AppSlotRenderer
              location={SlotLocation.TENANT_SWITCHER}
              className={
                tenantRowReserved(user, slots[SlotLocation.TENANT_SWITCHER.value]?.length ?? 0)
                  ? 'header__tenant header__tenant--reserved'
                  : 'header__tenant'
              }
              fallback={<HostTenantSwitcher />}
            />
            <span className="header__user" title={user.username}>
              {user.displayName}
            </span>
            <button
              type="button"
              className="button button--ghost button--small"
              onClick={() => void signOut()}
              aria-disabled={signingOut}
            >
              Sign out
            </button>
          </div>
        )}
      </div>
    </header>
  );
}
