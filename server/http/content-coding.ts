import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';

/**
 * Compressed copies of the files the server serves from its build output (the host shell, the remotes it builds),
 * and which one a request gets. A deployment without a proxy (the server's own HTTPS and HTTP/2) sent its JavaScript
 * uncompressed: a cold page load carried about 500 KiB where about 150 KiB do.
 */

/** The content codings offered, in the server's order of preference when a client accepts both equally. */
export const CONTENT_CODINGS = ['br', 'gzip'] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/** The compressed copies of one file; a coding is absent when it would not save enough to be worth a variant. */
export type CodedCopies = Partial<Record<ContentCoding, Buffer>>;

/** Below this a file is sent as it is: the saving is smaller than a packet. */
export const MIN_COMPRESSED_BYTES = 1024;
/** A copy is kept only when it is at most this share of the original (already compressed formats never are). */
const WORTHWHILE_RATIO = 0.9;
/**
 * Brotli's quality 5: about 30 MB/s on one core and within 2 % of quality 9's size on the host's files (9 takes four
 * times as long, 10 and 11 save 8 % more at 20 to 40 times the cost). Each file is compressed once per process.
 */
const BROTLI_QUALITY = 5;

const TEXT_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.html', '.json', '.map', '.txt', '.svg']);

const brotliCompress = promisify(zlib.brotliCompress);
const gzip = promisify(zlib.gzip);

/** Whether a file of this name and size is worth compressed copies: text formats of 1 KiB or more. */
export function isCompressible(file: string, size: number): boolean {
  return size >= MIN_COMPRESSED_BYTES && TEXT_EXTENSIONS.has(path.extname(file).toLowerCase());
}

/**
 * The brotli and gzip copies of `body`. zlib's asynchronous calls run in libuv's thread pool, so a request never
 * waits on a compression: the file is served as it is until its copies are ready (a few milliseconds for the
 * largest host file).
 */
export async function compressCopies(body: Buffer): Promise<CodedCopies> {
  const [br, gz] = await Promise.all([
    brotliCompress(body, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      },
    }),
    gzip(body),
  ]);
  const copies: CodedCopies = {};
  const limit = body.length * WORTHWHILE_RATIO;
  if (br.length <= limit) copies.br = br;
  if (gz.length <= limit) copies.gzip = gz;
  return copies;
}

/** The file extension of each coding's copy, as written beside a file by the build (precompressed-copies.ts). */
const CODED_COPY_EXTENSIONS: Readonly<Record<ContentCoding, string>> = { br: '.br', gzip: '.gz' };

/** Where the build writes `file`'s copy in `coding`: beside it, `main.0a1b2c3d4e.js.br`. */
export function codedCopyPath(file: string, coding: ContentCoding): string {
  return `${file}${CODED_COPY_EXTENSIONS[coding]}`;
}

/** Whether `file` is a coded copy the build wrote beside another (never served as a file of its own). */
export function isCodedCopy(file: string): boolean {
  return Object.values(CODED_COPY_EXTENSIONS).some((extension) => file.endsWith(extension));
}

/** `coding -> quality` of an Accept-Encoding header (`*` included); unparsable qualities count as 0. */
function acceptedQualities(header: string): Map<string, number> {
  const qualities = new Map<string, number>();
  for (const item of header.split(',')) {
    const [name, ...parameters] = item.split(';').map((part) => part.trim().toLowerCase());
    if (!name) continue;
    let quality = 1;
    for (const parameter of parameters) {
      const match = /^q\s*=\s*(.*)$/.exec(parameter);
      if (!match) continue;
      const value = Number(match[1]);
      quality = match[1] !== '' && Number.isFinite(value) ? Math.min(1, Math.max(0, value)) : 0;
    }
    qualities.set(name, quality);
  }
  return qualities;
}

/**
 * The coding to answer with, among the copies there are: the one the client rates highest (above 0), brotli before
 * gzip on a tie; null for the file as it is. Without an Accept-Encoding header the file goes as it is (RFC 9110
 * would allow any coding, but a client that sends none, curl among them, rarely decodes one).
 */
export function chooseCoding(acceptEncoding: string | undefined, copies: CodedCopies): ContentCoding | null {
  if (!acceptEncoding) return null;
  const qualities = acceptedQualities(acceptEncoding);
  let chosen: ContentCoding | null = null;
  let best = 0;
  for (const coding of CONTENT_CODINGS) {
    if (!copies[coding]) continue;
    const quality = qualities.get(coding) ?? qualities.get('*') ?? 0;
    if (quality > best) {
      chosen = coding;
      best = quality;
    }
  }
  return chosen;
}
