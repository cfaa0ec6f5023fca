import { writeFile } from 'node:fs/promises';
import path from 'node:path';

/** One entry of a REMOTES_CONFIG file (server/remotes/remotes-config.ts): an override of a built remote, or a new one. */
export interface RemotesConfigEntry {
  name: string;
  entry?: string;
  components?: string[];
  formComponents?: string[];
  enabled?: boolean;
}

/** Writes a REMOTES_CONFIG file into `dir` and returns the environment that points the server at it. */
export async function writeRemotesConfig(
  dir: string,
  remotes: readonly RemotesConfigEntry[],
  allowedOrigins?: readonly string[] | '*',
): Promise<Record<string, string>> {
  const file = path.join(dir, 'remotes-config.json');
  const config = allowedOrigins === undefined ? { remotes } : { remotes, allowedOrigins };
  await writeFile(file, `${JSON.stringify(config, null, 2)}\n`);
  return { REMOTES_CONFIG: file };
}
