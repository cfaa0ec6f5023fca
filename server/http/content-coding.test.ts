import { randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { chooseCoding, compressCopies, isCompressible, MIN_COMPRESSED_BYTES, type CodedCopies } from './content-coding';

const BOTH: CodedCopies = { br: Buffer.from('b'), gzip: Buffer.from('g') };

describe('chooseCoding', () => {
  it.each([
    // What browsers send: brotli preferred when both are equally welcome.
    ['gzip, deflate, br, zstd', BOTH, 'br'],
    ['gzip, deflate', BOTH, 'gzip'],
    ['br', BOTH, 'br'],
    ['*', BOTH, 'br'],
    // The client's qualities decide before the server's order.
    ['gzip;q=1, br;q=0.5', BOTH, 'gzip'],
    ['br;q=0, gzip', BOTH, 'gzip'],
    ['BR;Q=0.8, GZIP;Q=0.3', BOTH, 'br'],
    ['*;q=0.2, gzip;q=0', BOTH, 'br'],
    // Refusals, and qualities that are not numbers, mean "not this one".
    ['br;q=0, gzip;q=0', BOTH, null],
    ['br;q=abc, gzip;q=', BOTH, null],
    ['identity', BOTH, null],
    ['deflate', BOTH, null],
    ['', BOTH, null],
    [undefined, BOTH, null],
    // Only the copies there are.
    ['gzip, br', { gzip: Buffer.from('g') }, 'gzip'],
    ['br', { gzip: Buffer.from('g') }, null],
    ['gzip, br', {}, null],
  ] as Array<[string | undefined, CodedCopies, string | null]>)(
    'Accept-Encoding %j -> %j',
    (header, copies, expected) => {
      expect(chooseCoding(header, copies)).toBe(expected);
    },
  );
});

describe('isCompressible', () => {
  it('takes text formats of at least 1 KiB', () => {
    expect(isCompressible('assets/main.0123abcdef.js', MIN_COMPRESSED_BYTES)).toBe(true);
    expect(isCompressible('remotes/team/mf-manifest.json', 4096)).toBe(true);
    expect(isCompressible('assets/main.CSS', 4096)).toBe(true);
    expect(isCompressible('assets/main.0123abcdef.js', MIN_COMPRESSED_BYTES - 1)).toBe(false);
    expect(isCompressible('assets/logo.png', 4096)).toBe(false);
    expect(isCompressible('assets/font.woff2', 4096)).toBe(false);
  });
});

describe('compressCopies', () => {
  it('makes brotli and gzip copies that decode to the original', async () => {
    const body = Buffer.from('export const greeting = "hello";\n'.repeat(200));
    const copies = await compressCopies(body);
    expect(copies.br && zlib.brotliDecompressSync(copies.br).equals(body)).toBe(true);
    expect(copies.gzip && zlib.gunzipSync(copies.gzip).equals(body)).toBe(true);
    expect(copies.br!.length).toBeLessThan(body.length / 10);
  });

  it('keeps no copy that would not save at least a tenth', async () => {
    // Random bytes do not compress: the copies would be as large as the file, or larger.
    expect(await compressCopies(randomBytes(8192))).toEqual({});
  });
});
