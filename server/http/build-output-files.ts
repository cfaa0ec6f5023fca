import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { RequestHandler, Response } from 'express';
import { chooseCoding, compressCopies, isCodedCopy, isCompressible, type CodedCopies } from './content-coding';
import { readPrecompressedCopies } from './precompressed-copies';

/** Build files named with a content hash (`[name].[contenthash:10].js`, maps included): their content never changes. */
const HASHED_FILE = /\.[0-9a-f]{8,}\.(?:js|css|mjs)(?:\.map)?$/;

/** Whether a build file's name carries its content's hash: its content never changes. */
export function isHashedBuildFile(name: string): boolean {
  return HASHED_FILE.test(name);
}

/**
 * Build files no page loads that hand out the source: the source maps, and the federation plugin's build statistics
 * (`mf-stats.json`, which lists the source files of every exposed module). Served only with `sourceMaps` (outside
 * production by default), as docs/remote-teams.md asks the teams to keep them off their own origins.
 */
const SOURCE_REVEALING_FILE = /\.map$|^mf-stats\.json$/i;

export const IMMUTABLE = 'public, max-age=31536000, immutable';
export const REVALIDATE = 'no-cache';

/**
 * A stable-named file (index.html, mf-manifest.json, a development build's remoteEntry.js) is looked at on disk at
 * most this often.
 */
export const STABLE_FILE_RECHECK_MS = 1000;
/** What the memory of one folder holds at most; past it the cache starts over (a long `npm run dev` session). */
export const BUILD_OUTPUT_CACHE_MAX_BYTES = 64 * 1024 * 1024;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
};

/**
 * Cache policy of served build output: hashed files (a production remote's `remoteEntry.<hash>.js` among them) are
 * cached for a year; anything with a stable name (`index.html`, `mf-manifest.json`, `slots-remote.json`, a
 * development build's `remoteEntry.js`) must be revalidated every time, so a new deployment is picked up at once.
 */
export function setBuildCacheHeaders(res: Response, filePath: string): void {
  res.setHeader('Cache-Control', HASHED_FILE.test(path.basename(filePath)) ? IMMUTABLE : REVALIDATE);
}

interface CachedFile {
  body: Buffer;
  etag: string;
  mtimeMs: number;
  size: number;
  checkedAt: number;
  /** Whether the file has compressed copies, or will once they are made: its answers vary with Accept-Encoding. */
  compressible: boolean;
  /** Its brotli and gzip copies, once made (content-coding.ts); empty until then. */
  copies: CodedCopies;
}

/** The ETag of a compressed copy: the file's own, marked with the coding (a strong ETag names one representation). */
function codedEtag(etag: string, coding: string): string {
  return `${etag.slice(0, -1)}-${coding}"`;
}

/**
 * Serves a folder of build output (the host shell, a remote) from memory, with that cache policy: no directory
 * index or redirect, no dotfiles, source maps and `mf-stats.json` only when `sourceMaps` says so, and whatever is not a file falls
 * through to the next route (in the end, the JSON 404). A text file of 1 KiB or more is also sent compressed (brotli,
 * else gzip) to a client that accepts it: a hashed file with the copies the build wrote beside it
 * (precompressed-copies.ts), from its first request; any other once its copies are made in the background
 * (content-coding.ts).
 *
 * Why memory, and synchronous reads when a file is first asked for: libuv's thread pool (four threads) serves both
 * the asynchronous file system and the password hash. A burst of sign-ins kept it busy and `express.static`'s reads
 * queued behind the hashes for seconds. A file read here once is then served without touching the pool; a
 * stable-named file is re-checked with a `stat` at most once a second, so a rebuild or a redeploy of a remote into
 * the folder shows at once. A hashed file never changes. The compression does use the pool, once per file, and no
 * request waits for it: behind a burst of hashes, a file is simply sent uncompressed a little longer.
 */
export function serveBuildOutput(dir: string, options: { sourceMaps: boolean; now?: () => number }): RequestHandler {
  const root = path.resolve(dir);
  const now = options.now ?? Date.now;
  const cache = new Map<string, CachedFile>();
  let cachedBytes = 0;

  function load(file: string, existing: CachedFile | undefined): CachedFile | null {
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      if (existing) forget(file, existing);
      return null;
    }
    if (!stat.isFile()) return null;
    if (existing && existing.mtimeMs === stat.mtimeMs && existing.size === stat.size) {
      existing.checkedAt = now();
      return existing;
    }
    const body = fs.readFileSync(file);
    const entry: CachedFile = {
      body,
      etag: `"${createHash('sha1').update(body).digest('base64url')}"`,
      mtimeMs: stat.mtimeMs,
      size: stat.size,
      checkedAt: now(),
      compressible: isCompressible(file, body.length),
      copies: {},
    };
    if (existing) forget(file, existing);
    if (cachedBytes + body.length > BUILD_OUTPUT_CACHE_MAX_BYTES) {
      cache.clear();
      cachedBytes = 0;
    }
    cache.set(file, entry);
    cachedBytes += body.length;
    // The build's copies when it wrote them (precompressed-copies.ts): the first request is served compressed too.
    const built = entry.compressible && HASHED_FILE.test(path.basename(file)) ? readPrecompressedCopies(file) : null;
    if (built !== null) {
      entry.copies = built;
      cachedBytes += (built.br?.length ?? 0) + (built.gzip?.length ?? 0);
    } else if (entry.compressible) compressInBackground(file, entry);
    return entry;
  }

  /** Makes the file's compressed copies; until then it is served as it is. A file replaced meanwhile keeps none. */
  function compressInBackground(file: string, entry: CachedFile): void {
    compressCopies(entry.body).then(
      (copies) => {
        if (cache.get(file) !== entry) return;
        entry.copies = copies;
        cachedBytes += (copies.br?.length ?? 0) + (copies.gzip?.length ?? 0);
      },
      // Compression only saves bytes: a file it fails on is served as it is.
      () => undefined,
    );
  }

  function forget(file: string, entry: CachedFile): void {
    if (cache.get(file) === entry) {
      cache.delete(file);
      cachedBytes -= entry.body.length + (entry.copies.br?.length ?? 0) + (entry.copies.gzip?.length ?? 0);
    }
  }

  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const file = fileFor(root, req.path, options.sourceMaps);
    if (file === null) return next();
    const existing = cache.get(file);
    const fresh =
      existing !== undefined &&
      (HASHED_FILE.test(path.basename(file)) || now() - existing.checkedAt < STABLE_FILE_RECHECK_MS);
    const entry = fresh ? existing : load(file, existing);
    if (entry === null) return next();

    const coding = chooseCoding(req.headers['accept-encoding'], entry.copies);
    const body = coding === null ? entry.body : (entry.copies[coding] as Buffer);
    const etag = coding === null ? entry.etag : codedEtag(entry.etag, coding);
    setBuildCacheHeaders(res, file);
    if (entry.compressible) res.vary('Accept-Encoding');
    res.setHeader('ETag', etag);
    res.setHeader('Content-Type', CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream');
    if (req.headers['if-none-match'] === etag) {
      res.status(304).end();
      return;
    }
    if (coding !== null) res.setHeader('Content-Encoding', coding);
    res.setHeader('Content-Length', String(body.length));
    res.status(200).end(req.method === 'HEAD' ? undefined : body);
  };
}

/**
 * The file a request path names inside `root`, or null: not decodable, outside it, a dotfile, or a file that reveals
 * the source while `sourceMaps` is off.
 */
function fileFor(root: string, requestPath: string, sourceMaps: boolean): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || decoded.endsWith('/')) return null;
  const segments = decoded.split('/').filter((segment) => segment !== '');
  if (segments.length === 0 || segments.some((segment) => segment.startsWith('.'))) return null;
  // The build's compressed copies are answers to their file's path, never files of their own.
  if (isCodedCopy(segments[segments.length - 1]!)) return null;
  const file = path.join(root, ...segments);
  if (!file.startsWith(`${root}${path.sep}`)) return null;
  // The name as the file system reads it: whatever separator or letter case the path used.
  return !sourceMaps && SOURCE_REVEALING_FILE.test(path.basename(file)) ? null : file;
}
