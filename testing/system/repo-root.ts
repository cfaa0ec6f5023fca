import path from 'node:path';

/** Absolute path of the repository, so helpers work whatever the current directory of the test run. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

/** Where `npm run build` writes the host shell and the remotes. */
export const DIST_DIR = path.join(REPO_ROOT, 'dist');

/** Git-ignored output of test runs (screenshots, logs). */
export const ARTIFACTS_DIR = path.join(REPO_ROOT, 'artifacts');
