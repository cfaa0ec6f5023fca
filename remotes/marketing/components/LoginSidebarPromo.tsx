import { useId } from 'react';
import type { PropsOf } from '../../kit';
import type remote from '../remote';
import { safeHref, isExternalHref } from '../../common/safe-href';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type LoginSidebarPromoProps = PropsOf<typeof remote, 'LoginSidebarPromo'>;

/**
 * The right-hand panel of the sign-in page (desktop widths only; the host decides when to render it): a complementary
 * landmark named by its title, so that a screen reader's landmark list tells it from the page's others.
 */
export function LoginSidebarPromo({ title, body, linkLabel, href }: LoginSidebarPromoProps) {
  const link = safeHref(href);
  const titleId = useId();
  return (
    <aside className="promo" aria-labelledby={titleId}>
      <h2 className="promo__title" id={titleId}>
        {title}
      </h2>
      <p className="promo__body">{body}</p>
      {link && typeof linkLabel === 'string' && linkLabel !== '' && (
        <a
          className="button button--light"
          href={link}
          {...(isExternalHref(link) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
        >
          {linkLabel}
        </a>
      )}
    </aside>
  );
}
