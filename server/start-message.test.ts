import { commandLineFor } from './process/operator-commands';
import { formatStartMessage } from './start-message';
import { UNKNOWN_BUILD } from './process/build-identity';

describe('formatStartMessage', () => {
  it('prints the URL, the username and a generated password on first start', () => {
    const text = formatStartMessage({
      url: 'http://127.0.0.1:3000/',
      account: { username: 'admin', created: true, password: 'Gen3rated-pass', passwordGenerated: true },
      databasePathForCommand: undefined,
    });
    expect(text).toBe(
      'Slots platform is ready: open http://127.0.0.1:3000/\n' +
        'Sign in as "admin" with the password: Gen3rated-pass\n' +
        'This password is printed only now. To change it later: npm run user:add -- admin\n',
    );
  });

  it('says which release runs, after where to open it: an operator checking an upgrade reads it there', () => {
    const text = formatStartMessage({
      url: 'http://127.0.0.1:3000/',
      account: undefined,
      databasePathForCommand: undefined,
      release: {
        identity: { revision: '0123456789ab', dirty: false, builtAt: '2026-11-29T17:00:00.000Z' },
        schema: 17,
      },
    });
    expect(text.split('\n').slice(0, 2)).toEqual([
      'Slots platform is ready: open http://127.0.0.1:3000/',
      'Release: revision 0123456789ab (built 2026-11-29T17:00:00.000Z), database schema 17.',
    ]);
    const fromSources = formatStartMessage({
      url: 'http://127.0.0.1:3000/',
      account: undefined,
      databasePathForCommand: undefined,
      release: { identity: UNKNOWN_BUILD, schema: 17 },
    });
    expect(fromSources.split('\n')[1]).toBe(
      'Release: revision unknown (not built: run from its sources), database schema 17.',
    );
  });

  it('names PUBLIC_URL as where to open it, with where the server listens after it', () => {
    const text = formatStartMessage({
      url: 'http://0.0.0.0:3000/',
      publicUrl: 'https://admin.example.com/',
      account: undefined,
      databasePathForCommand: undefined,
    });
    expect(text.split('\n')[0]).toBe(
      'Slots platform is ready: open https://admin.example.com/ (this server listens on http://0.0.0.0:3000/)',
    );
    const same = formatStartMessage({
      url: 'http://127.0.0.1:3000/',
      publicUrl: 'http://127.0.0.1:3000/',
      account: undefined,
      databasePathForCommand: undefined,
    });
    expect(same.split('\n')[0]).toBe('Slots platform is ready: open http://127.0.0.1:3000/');
  });

  it('does not echo a password given in DEMO_PASSWORD', () => {
    const text = formatStartMessage({
      url: 'http://127.0.0.1:3000/',
      account: { username: 'admin', created: true, password: 'from-the-env-1', passwordGenerated: false },
      databasePathForCommand: undefined,
    });
    expect(text).toContain('with the password set in DEMO_PASSWORD');
    expect(text).not.toContain('from-the-env-1');
  });

  it('on later starts says the password was printed on first start and how to reset it, for this database', () => {
    const text = formatStartMessage({
      url: 'http://127.0.0.1:4000/',
      account: { username: 'admin', created: false, passwordGenerated: false },
      databasePathForCommand: '/srv/app.db',
    });
    expect(text).toContain('open http://127.0.0.1:4000/');
    expect(text).toContain(
      'the password it got when this database was made (DEMO_PASSWORD then, else the one printed by that first start)',
    );
    expect(text).toContain('Reset it with: DATABASE_PATH=/srv/app.db npm run user:add -- admin');
  });

  it('writes the reset command as it runs where the server is installed: the compiled file in the image', () => {
    // The image's working folder: dist/ and node_modules/, no package.json for npm to read.
    const text = formatStartMessage({
      url: 'http://127.0.0.1:4000/',
      account: { username: 'admin', created: true, password: 'generated-password', passwordGenerated: true },
      databasePathForCommand: '/data/app.db',
      commands: commandLineFor('/app', '/app'),
    });
    expect(text).toContain('To change it later: DATABASE_PATH=/data/app.db node dist/server/cli/user-add.js admin');
  });

  it("writes the command from outside the container with COMMAND_PREFIX, without the database's variable", () => {
    // docker exec runs it with the container's environment, DATABASE_PATH or DATABASE_URL included.
    for (const database of [
      { databasePathForCommand: '/data/app.db' },
      { databasePathForCommand: undefined, postgres: true },
    ]) {
      const text = formatStartMessage({
        url: 'http://127.0.0.1:4000/',
        account: { username: 'admin', created: false, passwordGenerated: false },
        ...database,
        commands: commandLineFor('/app', '/app', 'docker exec -it <container>'),
        commandsShareTheEnvironment: true,
      });
      expect(text).toContain('Reset it with: docker exec -it <container> node dist/server/cli/user-add.js admin\n');
    }
  });

  it('says a database file was made, none or an empty one being there, with what to set if the data is elsewhere', () => {
    const base = { url: 'http://127.0.0.1:4000/', account: undefined, databasePathForCommand: '/srv/app.db' };
    expect(formatStartMessage({ ...base, newDatabase: { file: '/srv/app.db', found: 'nothing' } })).toContain(
      "Made a new database at SQLite /srv/app.db, none being there. If this installation's data is in another file, stop " +
        'the server and set DATABASE_PATH to that file.\n',
    );
    expect(formatStartMessage({ ...base, newDatabase: { file: '/srv/app.db', found: 'an empty file' } })).toContain(
      "Made a new database at SQLite /srv/app.db, in the empty file (0 bytes) there. If this installation's data is in " +
        'another file, stop the server and set DATABASE_PATH to that file.\n',
    );
    expect(formatStartMessage(base)).not.toContain('new database');
  });

  it('on PostgreSQL names DATABASE_URL in the command, never its value (a start may be the only one given it)', () => {
    const text = formatStartMessage({
      url: 'http://127.0.0.1:4000/',
      account: { username: 'admin', created: false, passwordGenerated: false },
      databasePathForCommand: undefined,
      postgres: true,
    });
    expect(text).toContain("Reset it with: DATABASE_URL='<the DATABASE_URL of this server>' npm run user:add -- admin");
  });
  it('says what a TRUST_PROXY hop count must be, and says nothing of other settings', () => {
    const base = { url: 'http://127.0.0.1:3000/', account: undefined, databasePathForCommand: undefined };
    const hops = formatStartMessage({ ...base, trustProxy: 2 });
    expect(hops).toContain(
      'TRUST_PROXY=2 trusts X-Forwarded-For from 2 proxy hops: it must be exactly the number of proxies in front of ' +
        'this server. A higher count lets clients choose the address the sign-in limits count',
    );
    expect(formatStartMessage({ ...base, trustProxy: 1 })).toContain(
      'TRUST_PROXY=1 trusts X-Forwarded-For from 1 proxy hop:',
    );
    expect(formatStartMessage({ ...base, trustProxy: false })).not.toContain('TRUST_PROXY');
    expect(formatStartMessage({ ...base, trustProxy: ['loopback'] })).not.toContain('TRUST_PROXY');
    expect(formatStartMessage(base)).not.toContain('TRUST_PROXY');
  });

  it('says a server not running in production is in another mode, and what that mode serves', () => {
    const base = { url: 'http://127.0.0.1:3000/', account: undefined, databasePathForCommand: undefined };
    expect(
      formatStartMessage({ ...base, nodeEnv: 'development' })
        .split('\n')
        .at(-2),
    ).toBe(
      'Running with NODE_ENV=development, not production: failed slots show placeholders naming what failed, source ' +
        'maps and the slot schemas are served, and remote entries over plain http are accepted. Set ' +
        'NODE_ENV=production to run as the image does.',
    );
    expect(formatStartMessage({ ...base, nodeEnv: 'production' })).not.toContain('NODE_ENV');
    expect(formatStartMessage(base)).not.toContain('NODE_ENV');
  });
});
