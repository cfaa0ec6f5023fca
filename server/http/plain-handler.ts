import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * A middleware that needs nothing of Express (only Node's request and response): Express runs it as any other
 * middleware, and the public fast path (public-fast-path.ts) runs the very same instance before Express's router.
 */
export type PlainHandler = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;
