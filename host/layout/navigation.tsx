import { NavLink } from 'react-router-dom';
import { useSlotData } from '../core';

/** The side navigation: the dashboard, then the modules of GET /meta with their resources. */
export function Navigation() {
  const { meta } = useSlotData();
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
    </nav>
  );
}
