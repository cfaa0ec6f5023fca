import type { Response } from 'express';

/**
 * Sends JSON text that is already serialised (a cached payload), skipping res.json's stringify.
 * @param status defaults to 200
 */
export function sendJsonText(res: Response, text: string, status = 200): void {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}
