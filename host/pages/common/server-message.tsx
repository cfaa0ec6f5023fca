import { Fragment } from 'react';
import { InstantTime } from '../../text/instant-time';

/**
 * An instant as a server's message writes one: to the minute in UTC (instantInUtc, `2026-11-29 08:41 UTC`: a refused
 * release change, a release published twice), or as an ISO 8601 text in UTC (`2026-11-29T08:41:19.689Z`). Neither
 * after nor before a digit, so that no longer number is read as one.
 */
const INSTANT_IN_MESSAGE =
  /(?<![\d.:-])(\d{4}-\d{2}-\d{2})(?: (\d{2}:\d{2}) UTC|T(\d{2}:\d{2}(?::\d{2}(?:\.\d{1,3})?)?)Z)(?![\w:.])/g;

/** A piece of a server's message: its words as they came, or an instant found in them (its ISO text, in UTC). */
export type MessagePart = string | { at: string };

/**
 * A server's message cut at the instants it writes (INSTANT_IN_MESSAGE), each given as an ISO text in UTC. A text that
 * only looks like one (`2026-02-30 10:00 UTC`, a day that does not exist) stays words.
 */
export function messageParts(message: string): MessagePart[] {
  const parts: MessagePart[] = [];
  let from = 0;
  for (const found of message.matchAll(INSTANT_IN_MESSAGE)) {
    const [text, day, minute, time] = found;
    const iso = `${day}T${minute ?? time}${minute === undefined ? '' : ':00'}Z`;
    const date = new Date(iso);
    // A day or time that does not exist rolls over to another (30 Feb to 2 Mar): only one that comes back is one.
    if (Number.isNaN(date.getTime()) || date.toISOString().slice(0, 16) !== iso.slice(0, 16)) continue;
    if (found.index > from) parts.push(message.slice(from, found.index));
    parts.push({ at: date.toISOString() });
    from = found.index + text.length;
  }
  if (from < message.length) parts.push(message.slice(from));
  return parts;
}

/**
 * A server's message (a refusal, an error) as staff read it: its instants in the reader's own zone and form of
 * English, as every other time on the pages (InstantTime), rather than in the UTC the server writes them in, knowing
 * no reader's zone. The rest is shown as it came.
 */
export function ServerMessage({ text }: { text: string }) {
  return (
    <>
      {messageParts(text).map((part, index) =>
        typeof part === 'string' ? <Fragment key={index}>{part}</Fragment> : <InstantTime key={index} at={part.at} />,
      )}
    </>
  );
}
