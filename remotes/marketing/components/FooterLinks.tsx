import type { PropsOf } from '../../kit';
import type remote from '../remote';
import { linkItems } from '../../common/link-items';
import { isExternalHref } from '../../common/safe-href';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type FooterLinksProps = PropsOf<typeof remote, 'FooterLinks'>;

/** The footer's link row, shown after every page's content. */
export function FooterLinks({ links }: FooterLinksProps) {
  const items = linkItems(links);
  if (items.length === 0) return null;
  return (
    <nav className="footer-links" aria-label="Footer">
      <ul>
        {items.map((item) => (
          <li key={`${item.label}:${item.href}`}>
            {isExternalHref(item.href) ? (
              <a href={item.href} target="_blank" rel="noopener noreferrer">
                {item.label}
              </a>
            ) : (
              <a href={item.href}>{item.label}</a>
            )}
          </li>
        ))}
      </ul>
      <p className="footer-links__legal">© {new Date().getFullYear()} Slots platform demo</p>
    </nav>
  );
}
