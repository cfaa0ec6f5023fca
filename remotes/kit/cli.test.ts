/**
 * @jest-environment node
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CommandRun } from '../../testing/server/run-server-command';
import { runSlotsRemote } from '../../testing/slots-remote-command';

/** `slots-remote <args>` in its own process, as a team runs it in a project (here, a folder without one). */
function runCli(args: string[], env: Record<string, string> = {}): Promise<CommandRun> {
  return runSlotsRemote(args, tmpdir(), env);
}

describe('slots-remote, asked about itself', () => {
  it('prints the version of the kit installed with --version, and exits 0', async () => {
    const { version } = JSON.parse(readFileSync(path.join(__dirname, 'package.json'), 'utf8')) as { version: string };
    await expect(runCli(['--version'])).resolves.toEqual({ code: 0, stdout: `${version}\n`, stderr: '' });
  });

  it('prints the usage and where the changelog is with --help, and exits 0', async () => {
    const result = await runCli(['--help']);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout).toMatch(/^usage: slots-remote build\|dev/);
    expect(result.stdout).toContain('node_modules/@slots-platform/remote-kit: its CHANGELOG.md');
    // The guide, which the package carries (a team has no checkout of the product's repository).
    expect(result.stdout).toContain("remote teams' guide (its docs/remote-teams.md)");
  });

  it('still exits 1 with the usage for a command it does not know', async () => {
    const result = await runCli(['upgrade']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^usage: slots-remote build\|dev/);
  });
});

describe('slots-remote, run outside a project', () => {
  const noDeclaration =
    `No remote.ts in ${tmpdir()}: run slots-remote in your remote's project (the folder slots-remote new made, ` +
    'with remote.ts and components/), or give that folder as --dir.\n';

  it('build says there is no remote.ts in the folder and where to run it, and exits 1', async () => {
    await expect(runCli(['build'])).resolves.toEqual({ code: 1, stdout: '', stderr: noDeclaration });
  });

  it('release says the same before sending anything', async () => {
    const result = await runCli(
      ['release', '--version', '1.0.0', '--entry', 'http://127.0.0.1:9/1.0.0/mf-manifest.json'],
      { SLOTS_RELEASE_TOKEN: 'slt_x_y', SLOTS_RELEASE_SERVER: 'http://127.0.0.1:9' },
    );
    expect(result).toEqual({ code: 1, stdout: '', stderr: noDeclaration });
  });
});
