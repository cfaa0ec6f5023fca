/**
 * An instant as the server's messages say it: `2026-11-29 08:41 UTC`, to the minute, in UTC since the server knows no
 * reader's time zone, and readable where the ISO text (`2026-11-29T08:41:19.689Z`) was not. From milliseconds or an
 * ISO 8601 text; a text that is no instant is given back as it came.
 */
export function instantInUtc(at: number | string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return String(at);
  return `${date.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}
