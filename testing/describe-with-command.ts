import { spawnSync } from 'node:child_process';

/**
 * `describe` for a suite that drives a real program (redis-server, script): on a developer's machine without it the
 * suite is skipped, with the install command in its name; under CI (`CI=true`, as `bash .ci/run` runs) a missing
 * program fails the suite instead, so a missing install step can never hide the tests that need it.
 */
export function describeWithCommand(
  command: string,
  versionArgs: readonly string[],
  debianPackage: string,
): (name: string, suite: () => void) => void {
  const installed = spawnSync(command, [...versionArgs], { stdio: 'ignore' }).status === 0;
  if (installed) return (name, suite) => describe(name, suite);
  const missing = `${command} is not installed (apt-get install -y ${debianPackage}; .ci/run does it)`;
  if (isCi()) {
    return (name) =>
      describe(name, () => {
        it(`needs ${command}`, () => {
          throw new Error(`${missing}: under CI this suite must run, not be skipped.`);
        });
      });
  }
  return (name, suite) => describe.skip(`${name} (skipped: ${missing})`, suite);
}

/** CI sets `CI=true`; any value but empty, `0` or `false` counts. */
export function isCi(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = (env.CI ?? '').trim().toLowerCase();
  return value !== '' && value !== '0' && value !== 'false';
}
