import { NavLink } from 'react-router-dom';
import { SLOT_INSPECTOR_PATH } from '../../shared';
import { useSlotData, useSlotRuntime } from '../core';

/**
 * The side navigation: the dashboard, then the modules of GET /meta with their resources; the slot inspector when
 * the server runs in development (in production it is reached by its URL).
 */
export function Navigation() {
  const { meta } = useSlotData();
  const { showFailures } = useSlotRuntime();
  return (
    <nav className="nav" aria-label="Main">
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
      {showFailures && (
        <NavLink to={SLOT_INSPECTOR_PATH} className="nav__link" data-dev-link="slot-inspector">
          Slot inspector
        </NavLink>
      )}
    </nav>
  );
}
