import type { ServerResponse } from 'node:http';

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/**
 * Sends JSON that is already serialised and encoded (a cached payload): no stringify and no UTF-8 encoding per
 * request, and the bytes go to the socket without a copy. Several parts are sent as one answer, in order (a part
 * shared by every answer need not be copied into each one); they leave in one write.
 * @param status defaults to 200
 */
export function sendJsonBytes(res: ServerResponse, parts: Buffer | readonly Buffer[], status = 200): void {
  res.statusCode = status;
  res.setHeader('Content-Type', JSON_CONTENT_TYPE);
  if (Buffer.isBuffer(parts)) {
    res.setHeader('Content-Length', parts.length);
    res.end(parts);
    return;
  }
  let length = 0;
  for (const part of parts) length += part.length;
  res.setHeader('Content-Length', length);
  // end() uncorks fully, so the headers and every part leave in one write.
  res.cork();
  const last = parts.length - 1;
  for (let index = 0; index < last; index++) res.write(parts[index]);
  res.end(parts[last]);
}
