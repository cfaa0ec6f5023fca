import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

/** Every file of the folder (not below it) with its bytes' hash: what "nothing was changed" is checked against. */
export function folderSnapshot(folder: string): Record<string, string> {
  return Object.fromEntries(
    fs
      .readdirSync(folder)
      .sort()
      .map((name) => [
        name,
        createHash('sha256')
          .update(fs.readFileSync(path.join(folder, name)))
          .digest('hex'),
      ]),
  );
}
