import fs from 'node:fs';
import https from 'node:https';
import path from 'node:path';
import { REPO_ROOT } from '../system/repo-root';

/**
 * Two releases' builds as a rolling upgrade has them side by side: each a copy of this checkout's build (`dist/host`,
 * `dist/remotes`) with files only that release has, named as a build names them (a hash in the name), one in the
 * host's folder and one in a built-in remote's. A proxy in front of hosts of both must find each on its own host.
 */
export const RELEASE_ONLY_FILES = {
  old: ['/assets/release-old.0a1b2c3d4e.js', '/remotes/team_records/components.0a1b2c3d4e.js'],
  new: ['/assets/release-new.5f6a7b8c9d.js', '/remotes/team_records/components.5f6a7b8c9d.js'],
} as const;

export type Release = keyof typeof RELEASE_ONLY_FILES;

/** Writes `release`'s build into `dir` (a host's FRONTEND_DIR) and answers it. */
export function writeReleaseBuild(dir: string, release: Release): string {
  for (const folder of ['host', 'remotes']) {
    fs.cpSync(path.join(REPO_ROOT, 'dist', folder), path.join(dir, folder), { recursive: true });
  }
  for (const file of RELEASE_ONLY_FILES[release]) {
    // /assets/ is served from the host's build folder, /remotes/ from the build's root.
    const folder = file.startsWith('/assets/') ? 'host' : '.';
    fs.writeFileSync(path.join(dir, folder, file), `/* ${release} */`);
  }
  return dir;
}

/** The status of a GET through the proxy's HTTPS port, each on a connection of its own (as many browsers would). */
export function statusThroughProxy(port: number, requestPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = https.get(
      { host: '127.0.0.1', port, path: requestPath, rejectUnauthorized: false, agent: false },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.once('error', reject);
    req.setTimeout(10_000, () => req.destroy(new Error(`No answer to ${requestPath} within 10 s.`)));
  });
}

/**
 * The hosts in the compose proxy's upstream as its start script (deploy/compose/proxy-start.sh) last logged them
 * ("host-a, host-b", "host-a, host-b (not ready: backup)", "host-a, host-b (silent: left out)"), from the proxy's
 * log; null before it logged any.
 */
export function upstreamInProxyLog(log: string): string | null {
  const lines = [...log.matchAll(/^proxy: upstream(?: now)?: (.*?)(?:; nginx reloaded)?$/gm)];
  return lines.at(-1)?.[1] ?? null;
}
