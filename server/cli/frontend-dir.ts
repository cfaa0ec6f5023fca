import path from 'node:path';
import { DEFAULT_DIST_DIR } from '../app-options';

/**
 * The build output a host given this environment serves (FRONTEND_DIR, relative to `cwd`, else the repository's
 * dist/): where the commands that read REMOTES_CONFIG as a host does find the built-in remotes.
 */
export function frontendDirOf(env: NodeJS.ProcessEnv, cwd: string = process.cwd()): string {
  const frontendDir = env.FRONTEND_DIR?.trim();
  return frontendDir ? path.resolve(cwd, frontendDir) : DEFAULT_DIST_DIR;
}
