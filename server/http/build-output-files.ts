import path from 'node:path';
import express, { type RequestHandler, type Response } from 'express';

/** Build files named with a content hash (`[name].[contenthash:10].js`, maps included): their content never changes. */
const HASHED_FILE = /\.[0-9a-f]{8,}\.(?:js|css|mjs)(?:\.map)?$/;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/**
 * Cache policy of served build output: hashed files are cached for a year; anything with a stable name
 * (`index.html`, `mf-manifest.json`, `remoteEntry.js`, `slots-remote.json`) must be revalidated every time, so a
 * new deployment is picked up at once.
 */
export function setBuildCacheHeaders(res: Response, filePath: string): void {
  res.setHeader('Cache-Control', HASHED_FILE.test(path.basename(filePath)) ? IMMUTABLE : REVALIDATE);
}

/**
 * Serves a folder of build output (the host shell, a remote) with that cache policy: no directory index or redirect,
 * no dotfiles, source maps only when `sourceMaps` says so, and whatever is not a file falls through to the next
 * route (in the end, the JSON 404).
 */
export function serveBuildOutput(dir: string, options: { sourceMaps: boolean }): RequestHandler {
  const files = express.static(dir, {
    index: false,
    redirect: false,
    dotfiles: 'ignore',
    fallthrough: true,
    cacheControl: false,
    setHeaders: setBuildCacheHeaders,
  });
  if (options.sourceMaps) return files;
  return (req, res, next) => {
    if (req.path.endsWith('.map')) next();
    else files(req, res, next);
  };
}
