import { Fragment } from 'react';

/**
 * Where a name of the configuration breaks between its parts, besides a space. In a box that widens (a table's column,
 * in a table that scrolls sideways), a path between its folders (`/remotes/` then `team_marketing/`) and nothing else:
 * a location `header-banner` or a slot's id stays whole, as a table's layout takes every place offered to narrow a
 * column while it scrolls anyway. In a box that cannot widen (a heading, a fact), after a location's `-` and a name's
 * `.` too, taken only by a name wider than the whole line.
 */
export const NAME_SEPARATORS = { widen: '/', break: '-./' } as const;

export interface BreakableTextProps {
  text: string;
  /**
   * The characters after which a name may break between its parts, besides a space: NAME_SEPARATORS for the names
   * of the configuration (the default), `.-+_` for a release's version. A run of them is one place (`http://` breaks
   * after its two slashes, not between them).
   */
  breakAfter?: string;
  /**
   * What a name does when it is wider than its box. `widen` (the default): each of its parts stays on one line, where
   * the browser would break it too (after a hyphen `breakAfter` leaves out), and widens its box. `break`: it breaks
   * between its parts, and a part still wider than the box inside, where the CSS around it allows (overflow-wrap),
   * so that a box that cannot scroll never runs off a phone's screen.
   */
  wide?: 'widen' | 'break';
}

/**
 * A name of the configuration (a location `header-banner`, a remote, a release's version
 * `2026.11.29-build.1742+sha.0740d3c4`, an entry `/remotes/team_marketing/mf-manifest.json`) that wraps only where a
 * reader expects: at a space, and after the separators its kind of name has, only when it must. Broken anywhere, or
 * after a hyphen wherever a line ran out, a phone's column showed pieces (`header-` above `banner`, a version cut
 * every few letters) that read as other names and are not what anyone searches for. `<wbr>` is no text: the name
 * copied or read out is the same.
 */
export function BreakableText({ text, breakAfter, wide = 'widen' }: BreakableTextProps) {
  const separators = `[${(breakAfter ?? NAME_SEPARATORS[wide]).replace(/[\\\]^-]/g, '\\$&')}]`;
  const places = new RegExp(`(?<=${separators})(?!${separators})`);
  const words = text.split(/(\s+)/);
  return (
    <>
      {words.map((word, index) => {
        // The spaces, at odd indexes, stay plain text: a line may break at them, as anywhere.
        if (index % 2 === 1 || word === '') return word;
        const parts = word.split(places).map((part, partIndex) => (
          <Fragment key={partIndex}>
            {partIndex > 0 && <wbr />}
            {wide === 'widen' ? <span className="breakable-text__part">{part}</span> : part}
          </Fragment>
        ));
        // A name of several parts after or before other words, in a box that cannot widen, is one box: whole on the
        // line it starts while it fits there, else whole on the next, broken at its `<wbr>` only when wider than a
        // line (offered bare, they were taken wherever the line ran out: `header-` at the end of one, `banner` below).
        return wide === 'break' && parts.length > 1 && words.length > 1 ? (
          <span key={index} className="breakable-text__name">
            {parts}
          </span>
        ) : (
          <Fragment key={index}>{parts}</Fragment>
        );
      })}
    </>
  );
}
