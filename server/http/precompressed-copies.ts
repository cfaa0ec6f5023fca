import fs from 'node:fs';
import path from 'node:path';
import {
  CONTENT_CODINGS,
  codedCopyPath,
  compressCopies,
  isCodedCopy,
  isCompressible,
  type CodedCopies,
} from './content-coding';

/**
 * The compressed copies of the build's hashed files, made once by `npm run build` and written beside each file
 * (`main.0a1b2c3d4e.js.br`, `.gz`), read by the server when it first serves the file. Made by each server process
 * instead, the copies came after the first request for each file: the first visitor after every start or restart got
 * the host's JavaScript uncompressed (249 KiB where 169 KiB do), and each of several instances did so again. A hashed
 * file's content never changes, so its copies are right for as long as its name exists; a stable-named file
 * (index.html, a manifest, a development build's remoteEntry.js) may change in place and is compressed by the server.
 */

/** Writes the copies of every compressible hashed file under `dir` (`isHashed` decides); resolves to how many files. */
export async function writePrecompressedCopies(dir: string, isHashed: (name: string) => boolean): Promise<number> {
  let written = 0;
  for (const file of filesUnder(dir)) {
    const name = path.basename(file);
    if (!isHashed(name) || isCodedCopy(name)) continue;
    const body = fs.readFileSync(file);
    if (!isCompressible(file, body.length)) continue;
    const copies = await compressCopies(body);
    for (const coding of CONTENT_CODINGS) {
      const copy = copies[coding];
      if (copy !== undefined) fs.writeFileSync(codedCopyPath(file, coding), copy);
    }
    written += 1;
  }
  return written;
}

/**
 * The copies of `file` the build wrote beside it, or null when there are none (a development build, a folder not
 * built by `npm run build`): then the server makes them. Only for hashed files (see above).
 */
export function readPrecompressedCopies(file: string): CodedCopies | null {
  const copies: CodedCopies = {};
  let found = false;
  for (const coding of CONTENT_CODINGS) {
    try {
      copies[coding] = fs.readFileSync(codedCopyPath(file, coding));
      found = true;
    } catch {
      // None in this coding: the other may be there (a copy that would not save enough is not written).
    }
  }
  return found ? copies : null;
}

function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}
