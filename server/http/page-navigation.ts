import type { Request } from 'express';

/**
 * Whether a request is a browser opening an address (a GET or HEAD that asks for HTML before JSON): it is answered
 * with the host's page, never with the API's JSON, which a browser would show raw. API clients ask for JSON, or for
 * anything (a wildcard, which Express reads as JSON: the first type offered).
 */
export function isPageNavigation(req: Request): boolean {
  return (req.method === 'GET' || req.method === 'HEAD') && req.accepts(['json', 'html']) === 'html';
}
