/**
 * The most characters of a value a message quotes. More than the longest name the checks accept (a component name:
 * 128), so a value that just misses its pattern is shown whole; far less than what a remote's origin may answer (a
 * descriptor up to 1 MiB), which must never come back whole in a refusal or fill a log line.
 */
export const QUOTED_MAX_CHARS = 160;

/** `text`, cut to QUOTED_MAX_CHARS characters ending in an ellipsis when it is longer. */
export function shortened(text: string): string {
  if (text.length <= QUOTED_MAX_CHARS) return text;
  let end = QUOTED_MAX_CHARS - 1;
  // Not between the two halves of a surrogate pair: half a character would print as garbage.
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/** `value` as JSON (a string in its quotes), for a message saying what was given instead; cut short when long. */
export function quotedValue(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(shortened(value));
  return shortened(String(JSON.stringify(value)));
}
