/**
 * `npm run remote:new -- <name> [--dir <path>]`: creates a standalone remote project, by default in
 * `remotes/<name>/`, with `--dir` anywhere (outside this repository too). The same code as the kit's own
 * `slots-remote new` (remotes/kit/new-project.ts); here the template is the kit's folder, the versions are this
 * repository's, and the kit's tarball is packed from the sources.
 */
import path from 'node:path';
import {
  createRemoteProject,
  nextSteps,
  parseNewProjectArguments,
  type ProjectSource,
} from '../remotes/kit/new-project';
import { KIT_DIR, packKit, repositoryVersions } from './kit-pack';

const ROOT_DIR = path.resolve(__dirname, '..');
export const TEMPLATE_DIR = path.join(KIT_DIR, 'template');
const USAGE =
  'usage: npm run remote:new -- <name> [--dir <path>]   (name: a Module Federation name, e.g. team_billing)';

/** A new project's parts from this repository: the kit's template folder, its versions, the kit packed afresh. */
export const repositoryProjectSource = (): ProjectSource => ({
  templateDir: TEMPLATE_DIR,
  versions: repositoryVersions(),
  writeKitTarball: packKit,
});

function main(): void {
  const cwd = process.env.INIT_CWD ?? process.cwd();
  const options = parseNewProjectArguments(
    process.argv.slice(2),
    cwd,
    (name) => path.join(ROOT_DIR, 'remotes', name),
    USAGE,
  );
  // Relative to the folder the command was typed in (npm runs the script from the repository's root).
  console.log(nextSteps(options, createRemoteProject(options, repositoryProjectSource()), cwd));
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    console.error((error as Error).message);
    process.exitCode = 1;
  }
}
