/**
 * Latin letters that do not decompose (NFD/NFKD) into a letter and a diacritic, so that dropping the diacritics
 * leaves them as they are, with the plain spelling staff type for them ("oe" for œ, "ss" for ß). The server's word
 * search (server/resources/record-words.ts) and the records remote's slugs fold them alike; the remote imports this
 * file itself, not through the remote kit, which does not ship it.
 */
export const UNDECOMPOSED_LETTERS: Readonly<Record<string, string>> = Object.freeze({
  ß: 'ss',
  æ: 'ae',
  œ: 'oe',
  ø: 'o',
  ł: 'l',
  đ: 'd',
  ð: 'd',
  þ: 'th',
  ı: 'i',
});

const UNDECOMPOSED_LETTER = new RegExp(`[${Object.keys(UNDECOMPOSED_LETTERS).join('')}]`, 'g');

/** `text`, lower-cased already, with each of UNDECOMPOSED_LETTERS spelled plainly: `søren` -> `soren`. */
export function spellUndecomposedLetters(text: string): string {
  return text.replace(UNDECOMPOSED_LETTER, (letter) => UNDECOMPOSED_LETTERS[letter] ?? letter);
}
