import { Fragment } from 'react';

export interface BreakableTextProps {
  text: string;
  /**
   * The characters after which a line may break, besides a space: `.-+_` in a release's version, `/` in a path. A
   * run of them is one place (`http://` breaks after its two slashes, not between them).
   */
  breakAfter: string;
  /**
   * What a part (the text between two such places) does when it is wider than its box. `widen` (the default): it
   * stays on one line, where the browser would break it too (after a hyphen `breakAfter` leaves out), and widens its
   * box: a table's column, in a table that scrolls sideways. `break`: it breaks inside where the CSS around it allows
   * (overflow-wrap), so that a narrow box never runs off a phone's screen; the browser's own places stay (after a
   * hyphen), so `breakAfter` names them too.
   */
  widePart?: 'widen' | 'break';
}

/**
 * A name of the configuration (a location `header-banner`, a remote, a release's version
 * `2026.11.29-build.1742+sha.0740d3c4`, an entry `/remotes/team_marketing/mf-manifest.json`) that wraps only where a
 * reader expects: at a space, and after the separators its kind of name has. Broken anywhere, or after a hyphen where
 * the page keeps the name whole, a phone's column showed pieces (`header-` above `banner`, `mf-` above
 * `manifest.json`, a version cut every few letters) that read as other names and are not what anyone searches for.
 * `<wbr>` is no text: the name copied or read out is the same.
 */
export function BreakableText({ text, breakAfter, widePart = 'widen' }: BreakableTextProps) {
  const separators = `[${breakAfter.replace(/[\\\]^-]/g, '\\$&')}]`;
  const places = new RegExp(`(?<=${separators})(?!${separators})`);
  return (
    <>
      {text.split(/(\s+)/).map((word, index) =>
        // The spaces, at odd indexes, stay plain text: a line may break at them, as anywhere.
        index % 2 === 1 || word === '' ? (
          word
        ) : (
          <Fragment key={index}>
            {word.split(places).map((part, partIndex) => (
              <Fragment key={partIndex}>
                {partIndex > 0 && <wbr />}
                {widePart === 'break' ? part : <span className="breakable-text__part">{part}</span>}
              </Fragment>
            ))}
          </Fragment>
        ),
      )}
    </>
  );
}
