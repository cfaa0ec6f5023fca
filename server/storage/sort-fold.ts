import type BetterSqlite3 from 'better-sqlite3';
import { spellUndecomposedLetters } from '../../shared';

/**
 * How a text sort key folds letters, on both engines alike: upper case to lower, accents dropped, the letters that do
 * not decompose spelled plainly ("Éclair" -> "eclair", "Straße" -> "strasse", "Øre" -> "ore", "МОСКВА" -> "москва"),
 * so that a list sorts "Éclair" among the e's and a title typed without its accents or case finds it. The letters
 * folded are those of Latin (ASCII, Latin-1 to Latin Extended-B, Latin Extended Additional), Greek and Cyrillic; any
 * other character is kept as it is. One table serves the server's own keys (the prefix of a title search), SQLite
 * (SORT_FOLD_FUNCTION, registered on each connection as a JavaScript function) and PostgreSQL (the same table,
 * written into its SQL function by a migration), so the three never disagree on a key.
 */
export const SORT_FOLD_FUNCTION = 'slots_sort_fold_v1';

const FOLDED_RANGES: readonly (readonly [number, number])[] = [
  [0x41, 0x5a],
  [0xc0, 0x24f],
  [0x370, 0x3ff],
  [0x400, 0x4ff],
  [0x1e00, 0x1eff],
];

const DIACRITICS = /[\u0300-\u036f]/g;

function foldLetter(letter: string): string {
  return spellUndecomposedLetters(
    letter.normalize('NFD').toLowerCase().normalize('NFD').replace(DIACRITICS, '').normalize('NFC'),
  );
}

/** Each letter the fold changes, with what it becomes (one character, or a few: ß -> ss). */
const FOLDS: ReadonlyMap<string, string> = (() => {
  const folds = new Map<string, string>();
  for (const [first, last] of FOLDED_RANGES) {
    for (let code = first; code <= last; code++) {
      const letter = String.fromCharCode(code);
      const folded = foldLetter(letter);
      if (folded !== letter && folded !== '') folds.set(letter, folded);
    }
  }
  return folds;
})();

const FOLDABLE = new RegExp(`[${[...FOLDS.keys()].join('').replace(/[\]\\^-]/g, '\\$&')}]`, 'g');

/** `text` folded as sort keys are (see above). */
export function foldForSort(text: string): string {
  return text.replace(FOLDABLE, (letter) => FOLDS.get(letter) ?? letter);
}

/**
 * SORT_FOLD_FUNCTION for PostgreSQL: the letters that become several first (`replace`), then the rest in one
 * `translate`. Immutable, so that expression indexes can use it; STRICT (null in, null out) as SQLite's is not
 * needed: keys are coalesced to '' before they are folded.
 */
export function postgresSortFoldFunction(): string {
  const single = [...FOLDS].filter(([, folded]) => folded.length === 1);
  const several = [...FOLDS].filter(([, folded]) => folded.length > 1);
  let body = '$1';
  for (const [letter, folded] of several) body = `replace(${body}, '${letter}', '${folded}')`;
  const from = single.map(([letter]) => letter).join('');
  const to = single.map(([, folded]) => folded).join('');
  return (
    `CREATE OR REPLACE FUNCTION ${SORT_FOLD_FUNCTION}(text) RETURNS text LANGUAGE sql IMMUTABLE STRICT ` +
    `PARALLEL SAFE AS $fold$ SELECT translate(${body}, '${from}', '${to}') $fold$;`
  );
}

/**
 * Registers SORT_FOLD_FUNCTION on a SQLite connection: every connection that writes records needs it once an index
 * on a text sort key exists (AppDatabase.open registers it; so must any other program writing to the file).
 */
export function registerSqliteSortFold(db: BetterSqlite3.Database): void {
  db.function(SORT_FOLD_FUNCTION, { deterministic: true }, (value: unknown) =>
    value === null || value === undefined ? null : foldForSort(String(value)),
  );
}
