import { NavLink, useLocation } from 'react-router-dom';
import {
  LOCATIONS_PAGE_PATH,
  PLACEMENTS_EDIT,
  PLACEMENTS_PAGE_PATH,
  RELEASES_MANAGE,
  RELEASES_PAGE_PATH,
  SLOT_INSPECTOR_PATH,
  userMay,
} from '../../shared';
import { useSession, useSlotData } from '../core';
import { useCurrentLinkInView } from './use-current-link-in-view';

/**
 * The side navigation: the dashboard, then the modules of GET /meta with their resources; the releases of remotes
 * and the placements editor for operators only (other staff would only meet "operators only" there); the slot inspector, in production too:
 * "why is this component missing?" is asked most where nobody can type a development address from memory.
 */
export function Navigation() {
  const { meta } = useSlotData();
  const { user } = useSession();
  const navRef = useCurrentLinkInView<HTMLElement>(useLocation().pathname, meta?.modules);
  return (
    <nav ref={navRef} className="nav" aria-label="Main">
      <NavLink to="/" end className="nav__link">
        Dashboard
      </NavLink>
      {meta?.modules.map((module) => (
        <div className="nav__group" key={module.name} data-module={module.name}>
          <p className="nav__heading">{module.label}</p>
          {module.resources.map((resource) => (
            <NavLink key={resource.name} to={`/resources/${encodeURIComponent(resource.name)}`} className="nav__link">
              {resource.label}
            </NavLink>
          ))}
        </div>
      ))}
      {/* Under a heading of their own: below the last module they read as part of its content otherwise. */}
      <div className="nav__group" data-module="slot-tools">
        <p className="nav__heading">Slots</p>
        {userMay(user, RELEASES_MANAGE) && (
          <NavLink to={RELEASES_PAGE_PATH} className="nav__link">
            Releases
          </NavLink>
        )}
        {userMay(user, PLACEMENTS_EDIT) && (
          <NavLink to={PLACEMENTS_PAGE_PATH} className="nav__link">
            Placements
          </NavLink>
        )}
        <NavLink to={SLOT_INSPECTOR_PATH} className="nav__link">
          Slot inspector
        </NavLink>
        <NavLink to={LOCATIONS_PAGE_PATH} className="nav__link">
          Locations
        </NavLink>
      </div>
    </nav>
  );
}
