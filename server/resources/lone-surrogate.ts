/** In a `u` regular expression a surrogate pair is one code point: only a half without its other half matches. */
const LONE_SURROGATE = /\p{Surrogate}/u;

/**
 * Whether `text` holds half of a UTF-16 surrogate pair on its own (`JSON.parse('"\\ud800"')` makes one). It is no
 * Unicode text: PostgreSQL's jsonb refuses it (a 500 if it got that far), SQLite would store it.
 */
export function hasLoneSurrogate(text: string): boolean {
  return LONE_SURROGATE.test(text);
}
