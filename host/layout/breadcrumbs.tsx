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
              {/* Each label in its own direction (a record's title may be Hebrew or Arabic), isolated from the trail's. */}
              {crumb.to && index < trail.length - 1 ? (
                <Link to={crumb.to}>
                  <bdi>{crumb.label}</bdi>
                </Link>
              ) : (
                <span aria-current={index === trail.length - 1 ? 'page' : undefined}>
                  <bdi>{crumb.label}</bdi>
                </span>
              )}
            </li>
          ))}
        </ol>
      </nav>
      {actions && <div className="breadcrumbs__actions">{actions}</div>}
    </div>
  );
}
