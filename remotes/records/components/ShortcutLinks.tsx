import type { PropsOf } from '../../kit';
import type remote from '../remote';
import { linkItems } from '../../common/link-items';
import { isExternalHref } from '../../common/safe-href';

/** The props a slot gives it, inferred from its schema in remote.ts. */
export type ShortcutLinksProps = PropsOf<typeof remote, 'ShortcutLinks'>;

/** Tiles of frequent destinations under the dashboard cards. */
export function ShortcutLinks({ links }: ShortcutLinksProps) {
  const items = linkItems(links);
  if (items.length === 0) return null;
  return (
    <nav className="shortcuts" aria-label="Shortcuts">
      <h2 className="shortcuts__title">Shortcuts</h2>
      <ul className="shortcuts__list">
        {items.map((item) => (
          <li key={`${item.label}:${item.href}`}>
            <a
              className="shortcuts__tile"
              href={item.href}
              {...(isExternalHref(item.href) ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
            >
              {item.label}
              <span aria-hidden="true"> →</span>
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
