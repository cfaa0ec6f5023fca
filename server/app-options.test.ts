import pino from 'pino';
import { appSettingsOf, DEFAULT_SESSION_ABSOLUTE_MS, DEFAULT_SESSION_IDLE_MS, type AppOptions } from './app-options';
import { DEFAULT_DESCRIPTOR_TIMEOUT_MS } from './remotes/http-descriptor-source';

const SECRET = 'a-session-secret-of-32-characters';
const logger = pino({ level: 'silent' });

function settingsOf(options: Partial<AppOptions>) {
  return appSettingsOf({ databasePath: '/tmp/app.db', sessionSecret: SECRET, logger, ...options });
}

describe('app options', () => {
  it('fills in the defaults: a development server on the SQLite file, no proxy trusted, source maps served', () => {
    const settings = settingsOf({});
    expect(settings).toMatchObject({
      nodeEnv: 'development',
      development: true,
      storage: { kind: 'sqlite', path: '/tmp/app.db' },
      secrets: [SECRET],
      trustProxy: false,
      idleMs: DEFAULT_SESSION_IDLE_MS,
      absoluteMs: DEFAULT_SESSION_ABSOLUTE_MS,
      sourceMaps: true,
      slotProblems: 'fail',
      remoteDescriptorTimeoutMs: DEFAULT_DESCRIPTOR_TIMEOUT_MS,
      env: { NODE_ENV: 'development' },
      allowedOrigins: [],
      beforeRoutes: [],
      beforeLogin: [],
    });
  });

  it('serves no source maps and no slot details in production unless told to', () => {
    expect(settingsOf({ nodeEnv: 'production' })).toMatchObject({ development: false, sourceMaps: false });
    expect(settingsOf({ nodeEnv: 'production', serveSourceMaps: true }).sourceMaps).toBe(true);
  });

  it("takes NODE_ENV from the env it is given (the guide's entry), unless nodeEnv says otherwise", () => {
    const env = { NODE_ENV: 'production', REMOTES_CONFIG: '/etc/slots/remotes.json' };
    expect(settingsOf({ env })).toMatchObject({ nodeEnv: 'production', development: false, sourceMaps: false });
    expect(settingsOf({ env, nodeEnv: 'development' })).toMatchObject({ nodeEnv: 'development', development: true });
    expect(settingsOf({ env: { NODE_ENV: ' ' } })).toMatchObject({ nodeEnv: 'development', development: true });
  });

  it('keeps every secret for verification, the first one signing', () => {
    expect(settingsOf({ sessionSecret: [SECRET, `${SECRET}-old`] }).secrets).toEqual([SECRET, `${SECRET}-old`]);
  });

  it('refuses what would make the server unsafe or unusable, naming the option', () => {
    expect(() => settingsOf({ sessionSecret: 'short' })).toThrow('sessionSecret must be one or more strings');
    expect(() => settingsOf({ sessionSecret: [] })).toThrow('sessionSecret must be one or more strings');
    // What `sessionSecret: process.env.SESSION_SECRET!` gives when the variable is not set.
    expect(() => settingsOf({ sessionSecret: undefined as unknown as string })).toThrow(
      'sessionSecret must be one or more strings of at least 16 characters, and none was given (is SESSION_SECRET set?).',
    );
    expect(() => settingsOf({ trustProxy: true as unknown as false })).toThrow('trustProxy must be');
    expect(() => settingsOf({ sessionIdleMs: 0 })).toThrow('sessionIdleMs must be a positive number');
    expect(() => settingsOf({ sessionAbsoluteMs: Number.NaN })).toThrow('sessionAbsoluteMs must be a positive number');
    expect(() => settingsOf({ databasePath: undefined })).toThrow('Give databasePath (the SQLite file) or storage.');
    expect(() => settingsOf({ publicOrigin: 'https://admin.example.com/slots' })).toThrow(
      'publicOrigin must be an origin (scheme://host[:port]), got "https://admin.example.com/slots".',
    );
  });
});
