import type { ReactNode } from 'react';
import { useOverflowing } from '../../hooks/use-overflowing';

/**
 * The scrolling frame of a record table (`table--records`): marked `data-overflowing` while the table is wider than
 * it, when the pinned actions column shows that columns scroll beneath it (pages/common/pages.css). Given a `label` (`Articles
 * records`) it is a named region in the Tab order, as the tool pages' tables are, so a keyboard can scroll it.
 */
export function RecordTableFrame({ label, busy, children }: { label?: string; busy?: boolean; children: ReactNode }) {
  const { ref, overflowing } = useOverflowing<HTMLDivElement>();
  return (
    <div
      ref={ref}
      className="table-wrap"
      {...(label && { role: 'region', 'aria-label': label, tabIndex: 0 })}
      aria-busy={busy}
      data-overflowing={overflowing || undefined}
    >
      {children}
    </div>
  );
}
