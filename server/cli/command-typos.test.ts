import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { compileServerCommands, type CompiledServerCommands } from '../../testing/server/compiled-server-commands';
import type { CommandRun } from '../../testing/server/run-server-command';

// Some seventy command processes: each started with tsx, the file took two minutes and more on a busy two-core
// machine; compiled once, as their npm scripts run them (node on dist/), each starts in a fraction of that.
jest.setTimeout(300_000);

/**
 * A typo in an account or tenant command (an option, an action, a flag given twice) is refused with what is wrong
 * before the usage, exit 2, and nothing changed: they were answered with the usage alone, or, for `tenant:add --help`,
 * with "--help is not a tenant id". Asking for help is no mistake: the usage on stdout, exit 0.
 */
describe('the account and tenant commands refuse a typo, saying what is wrong', () => {
  let dir: TempDir;
  let compiled: CompiledServerCommands;
  beforeAll(async () => {
    compiled = await compileServerCommands();
  });
  afterAll(() => compiled?.remove());
  beforeEach(() => {
    dir = makeTempDir('slots-command-typos-');
  });
  afterEach(() => dir.remove());

  it('names the mistake, exits 2 and changes nothing', async () => {
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db') };
    const run = (script: string, args: string[], input?: string) => compiled.run(script, args, env, input);
    expect((await run('tenant-add.ts', ['acme'])).code).toBe(0);
    expect((await run('tenant-add.ts', ['globex'])).code).toBe(0);
    expect((await run('user-add.ts', ['ann', '--tenant', 'acme'], 'ann-password-1234\n')).code).toBe(0);
    const state = async () =>
      [
        (await run('user-list.ts', [])).stdout,
        (await run('tenant-list.ts', [])).stdout,
        (await run('feature-flag.ts', ['list'])).stdout,
      ].join('');
    const before = await state();

    const cases: [string, string[], string][] = [
      ['tenant-add.ts', ['initech', '--nmae', 'Initech'], 'Unknown option --nmae. usage: '],
      ['tenant-add.ts', ['initech', '--name', 'A', '--name', 'B'], '--name is given twice. usage: '],
      ['tenant-add.ts', ['initech', 'extra'], 'Give one tenant id, not 2: "initech", "extra". usage: '],
      ['user-list.ts', ['--tenant', 'acme', '--tenant', 'globex'], '--tenant is given twice: '],
      ['user-list.ts', ['--tenan', 'acme'], 'Unknown option --tenan.\n'],
      ['feature-flag.ts', ['set', 'beta', 'on', '--tenant', 'acme', '--tenant', 'globex'], '--tenant is given twice: '],
      ['feature-flag.ts', ['set', 'beta', 'onn'], 'Say on or off, not "onn".\n'],
      ['feature-flag.ts', ['set', 'beta', 'on', '--tennant', 'acme'], 'Unknown option --tennant.\n'],
      ['feature-flag.ts', ['sett', 'beta', 'on'], 'Unknown action "sett": set, unset or list.\n'],
      ['user-permission.ts', ['shw', 'ann'], 'Unknown action "shw": grant, revoke or show.\n'],
      ['user-permission.ts', ['grant', 'ann'], 'Name the permission to grant after the username.\n'],
      ['user-remove.ts', ['ann', '--yse'], 'Unknown option --yse.\n'],
      ['tenant-remove.ts', ['acme', '--with-dat', '--yes'], 'Unknown option --with-dat.\n'],
      ['user-access.ts', ['disable', 'ann', 'bob'], 'Give one username, not 2: "ann", "bob".\n'],
      ['user-add.ts', ['ann', '--keep-password', '--role', 'admin'], 'Unknown role "admin": --role must be viewer, '],
      [
        'user-add.ts',
        ['ann', '--keep-password', '--tenant', 'globex', '--role', 'viewer', '--tenant', 'globex'],
        '--tenant "globex" is given twice, with a --role after one of them only: ',
      ],
      // --help and -h as an option's value are that value, read as any other (they printed the help, exit 0).
      ['user-add.ts', ['ann', '--keep-password', '--tenant', '--help'], '--tenant needs a tenant id.\n'],
      ['user-add.ts', ['ann', '--keep-password', '--role', '-h'], 'Unknown role "-h": --role must be viewer, '],
      // An option user:add does not take is that mistake, a -h beside it or not (the help was printed, exit 0).
      ['user-add.ts', ['ann', '--name', '-h'], 'Unknown option --name.\n'],
      ['user-add.ts', ['-h', 'ann', '--name=Ann'], 'Unknown option --name=Ann.\n'],
      ['user-list.ts', ['--tenant', '-h'], '--tenant needs a tenant id.\n'],
      ['feature-flag.ts', ['set', 'beta', 'on', '--tenant', '-h'], '--tenant needs a tenant id.\n'],
      ['tenant-add.ts', ['acme', '--name', '-h'], '--name needs a name, not the option "-h" (--name=-h names it so). '],
      ['tenant-add.ts', ['acme', '--name', '--help'], '--name needs a name, not the option "--help" '],
      // These said the usage alone.
      ['team-token.ts', ['add'], 'Name the remote to make a token for.\n'],
      ['team-token.ts', ['add', 'team_marketing', '--expires'], '--expires needs a number of days, for example 90d.\n'],
      ['team-token.ts', ['add', 'team_marketing', '--expire', '9d'], 'Unknown option --expire.\n'],
      ['team-token.ts', ['list', 'all'], 'token:list takes nothing more, got "all".\n'],
      ['remotes-reload.ts', ['now'], 'remotes:reload takes no arguments, got "now".\n'],
      ['tenant-list.ts', ['acme'], 'tenant:list takes no arguments, got "acme".\n'],
      ['db-copy.ts', ['--from', 'a.db', '--from', 'b.db'], '--from is given twice.\n'],
      ['db-copy.ts', ['--to'], '--to needs a PostgreSQL address.\n'],
      // An option db:copy does not take, a -h beside it or not (the help was printed, exit 0).
      ['db-copy.ts', ['--form', 'a.db', '-h'], 'Unknown option --form.\n'],
    ];
    // Side by side: each changes nothing (what is checked), so their order does not matter.
    const refusals = await Promise.all(cases.map(([script, args]) => run(script, args)));
    for (const [at, [script, args, said]] of cases.entries()) {
      const refused = refusals[at]!;
      expect([script, args, refused.code, refused.stdout]).toEqual([script, args, 2, '']);
      expect(refused.stderr.startsWith(said) ? said : refused.stderr).toBe(said);
      // One form for every command (user:add's said `Usage:`).
      expect(refused.stderr).toMatch(/(^|\n|\. )usage: /);
    }
    expect(await state()).toBe(before);
  });

  /** Every npm script that runs a command of server/cli/: its name, its file, the words it puts before the operator's. */
  const commands = Object.entries(
    (
      JSON.parse(readFileSync(path.join(__dirname, '..', '..', 'package.json'), 'utf8')) as {
        scripts: Record<string, string>;
      }
    ).scripts,
  ).flatMap(([name, line]) => {
    const match = /\bdist\/server\/cli\/([\w-]+)\.js((?: \w+)*)$/.exec(line);
    return match ? [{ name, script: `${match[1]}.ts`, words: (match[2] ?? '').split(' ').filter(Boolean) }] : [];
  });

  it('answers --help and -h of every command with its usage on stdout, exit 0, touching no database', async () => {
    // Every operator command there is (user:add to flag), each as its npm script runs it: a user asking for help
    // was answered as a mistake, on stderr with exit 2.
    expect(commands.map(({ name }) => name)).toEqual(
      expect.arrayContaining(['user:add', 'user:disable', 'tenant:remove', 'token:list', 'db:backup', 'flag']),
    );
    expect(commands.length).toBeGreaterThanOrEqual(16);
    // Where there is no database yet: help makes none (tenant:add and user:add may make one when they run).
    const env = { DATABASE_PATH: path.join(dir.path, 'app.db'), DATABASE_URL: '' };
    const asked = commands.flatMap((command) =>
      [['--help'], ['-h']].map((help) => ({ ...command, args: [...command.words, ...help] })),
    );
    // A few at a time: some thirty-five command processes at once outgrow a small machine's memory.
    const answers: CommandRun[] = [];
    for (let from = 0; from < asked.length; from += 6) {
      const batch = asked.slice(from, from + 6);
      answers.push(...(await Promise.all(batch.map(({ script, args }) => compiled.run(script, args, env)))));
    }
    for (const [at, { name, args }] of asked.entries()) {
      const answer = answers[at]!;
      expect([name, args, answer.code, answer.stderr]).toEqual([name, args, 0, '']);
      // What it does, then its usage, which names the command as the operator types it.
      expect([name, answer.stdout]).toEqual([name, expect.stringMatching(/^[A-Z][^\n]*\.\nusage: /)]);
      expect([name, answer.stdout]).toEqual([name, expect.stringContaining(`npm run ${name}`)]);
    }
    expect(existsSync(env.DATABASE_PATH)).toBe(false);
    expect(readdirSync(dir.path)).toEqual([]);
  });
});
