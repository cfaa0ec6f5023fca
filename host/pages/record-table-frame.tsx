import type { ReactNode } from 'react';
import { useOverflowing } from '../app/use-overflowing';

/**
 * The scrolling frame of a record table (`table--records`): marked `data-overflowing` while the table is wider than
 * it, when the pinned actions column shows that columns scroll beneath it (styles.css).
 */
export function RecordTableFrame({ busy, children }: { busy?: boolean; children: ReactNode }) {
  const { ref, overflowing } = useOverflowing<HTMLDivElement>();
  return (
    <div ref={ref} className="table-wrap" aria-busy={busy} data-overflowing={overflowing || undefined}>
      {children}
    </div>
  );
}
