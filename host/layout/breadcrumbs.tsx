import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';

export interface Crumb {
  label: string;
  to?: string;
}

/** The trail of a page, with room on its right for the page's actions. */
export function Breadcrumbs({ trail, actions }: { trail: Crumb[]; actions?: ReactNode }) {
  return (
    <div className="breadcrumbs">
      <nav aria-label="Breadcrumb">
        <ol className="breadcrumbs__trail">
          {trail.map((crumb, index) => (
            <li key={`${index}:${crumb.label}`}>
              {crumb.to && index < trail.length - 1 ? (
                <Link to={crumb.to}>{crumb.label}</Link>
              ) : (
                <span aria-current={index === trail.length - 1 ? 'page' : undefined}>{crumb.label}</span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {actions && <div className="breadcrumbs__actions">{actions}</div>}
    </div>
  );
}
