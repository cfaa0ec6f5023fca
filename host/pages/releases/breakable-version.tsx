import { Fragment } from 'react';

/**
 * A release's version with a line break offered after each of its separators (`.`, `-`, `+`, `_`): where its column is
 * narrower than it (a phone's), `2026.11.29-build.1742+sha.0740d3c4` wraps between its parts, `2026.11.29-` then
 * `build.1742+`, not inside one, nor under the pinned actions. `<wbr>` is no text: the version copied or read out is
 * the same.
 */
export function BreakableVersion({ version }: { version: string }) {
  return (
    <>
      {version.split(/(?<=[.+_-])/).map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
