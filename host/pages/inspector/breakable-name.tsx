import { Fragment } from 'react';

/**
 * Text of the inspector's tables, whose names are the configuration's own (a location `header-banner`, a component,
 * a remote, an entry `/remotes/team_marketing/mf-manifest.json`, a media query `(min-width: 1024px)`), wrapped only
 * where a reader expects: at a space, and after a path's `/` (`/remotes/` then `team_marketing/`), as a release's
 * version wraps between its parts (releases/breakable-version.tsx). A browser also breaks after a hyphen: a phone's
 * column showed `header-` above `banner` and `mf-` above `manifest.json`, which read as other names and are not what
 * anyone searches for. Each part is kept whole (`.breakable-name__part`); `<wbr>` is no text, so the text copied or
 * read out is the same. A part wider than its column widens it: the table scrolls sideways (ToolTable).
 */
export function BreakableName({ text }: { text: string }) {
  return (
    <>
      {text.split(/(\s+)/).map((word, index) =>
        // The spaces, at odd indexes, stay plain text: a line may break at them, as anywhere.
        index % 2 === 1 || word === '' ? (
          word
        ) : (
          <Fragment key={index}>
            {word.split(/(?<=\/)(?!\/)/).map((part, partIndex) => (
              <Fragment key={partIndex}>
                {partIndex > 0 && <wbr />}
                <span className="breakable-name__part">{part}</span>
              </Fragment>
            ))}
          </Fragment>
        ),
      )}
    </>
  );
}
