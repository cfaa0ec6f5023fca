import path from 'node:path';
import { publicUrlWithoutTlsWarning, withoutPublicUrlWarning } from './security/public-url';
import { ConfigError, readConfig, type ServerConfig } from './env-config';

const SECRET = 'a-shared-secret-0123456789';

describe('readConfig', () => {
  it('has the documented defaults', () => {
    const config = readConfig({});
    expect(config).toEqual({
      port: 3000,
      host: '127.0.0.1',
      databasePath: path.resolve('./data/app.db'),
      redisUrl: undefined,
      nodeEnv: 'development',
      sessionSecret: undefined,
      demoPassword: undefined,
      trustProxy: false,
      sessionIdleMs: 30 * 60 * 1000,
      sessionAbsoluteMs: 12 * 60 * 60 * 1000,
      logRequests: false,
      logLevel: undefined,
      allowedOrigins: [],
      publicOrigin: undefined,
      loginRateLimit: {
        perAccountAndIp: 10,
        perIp: 100,
        perAccount: 30,
        accountSlowdownSeconds: 10,
        windowSeconds: 900,
      },
      teamTokenLimit: { perIp: 20, windowSeconds: 900 },
      slotEvents: {
        eventsPerSessionPerMinute: 600,
        eventsPerAddressPerMinute: 3000,
        flushMs: 1000,
        maxPendingRows: 10_000,
        canary: { enabled: true, checkMs: 10_000, windowMs: 5 * 60_000, minLoads: 50, minVisitors: 10, margin: 0.05 },
      },
      serverTimeouts: { headersTimeoutMs: 15_000, requestTimeoutMs: 30_000, keepAliveTimeoutMs: 5_000 },
      shutdown: { drainDelayMs: 0, timeoutMs: 10_000 },
      metrics: { token: undefined, port: undefined, host: '127.0.0.1' },
      remoteDescriptorTimeoutMs: 3000,
    });
  });

  it('reads every variable', () => {
    const config = readConfig({
      PORT: '0',
      HOST: '0.0.0.0',
      DATABASE_PATH: '/tmp/some/app.db',
      REDIS_URL: 'redis://127.0.0.1:6379',
      NODE_ENV: 'production',
      SESSION_SECRET: 'new-secret-0123456789, old-secret-0123456789',
      DEMO_PASSWORD: 'twelve chars',
      TRUST_PROXY: '1',
      SESSION_IDLE_MINUTES: '5',
      SESSION_ABSOLUTE_HOURS: '0.5',
      LOG_REQUESTS: 'true',
      LOG_LEVEL: 'debug',
      ALLOWED_ORIGINS: 'https://admin.example.com, http://127.0.0.1:8080/',
      PUBLIC_URL: 'https://slots.example.com/',
      LOGIN_RATE_LIMIT: '5',
      LOGIN_IP_RATE_LIMIT: 'off',
      LOGIN_RATE_LIMIT_WINDOW_SECONDS: '60',
      TEAM_TOKEN_RATE_LIMIT: '5',
      SLOT_EVENTS_PER_SESSION_PER_MINUTE: '100',
      SLOT_EVENTS_PER_ADDRESS_PER_MINUTE: '1000',
      CANARY_AUTO_ROLLBACK: 'off',
      CANARY_ROLLBACK_MIN_LOADS: '200',
      CANARY_ROLLBACK_MIN_VISITORS: '25',
      CANARY_ROLLBACK_MARGIN_POINTS: '10',
      CANARY_ROLLBACK_WINDOW_MINUTES: '15',
      HEADERS_TIMEOUT_MS: '2000',
      REQUEST_TIMEOUT_MS: '4000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
      SHUTDOWN_DELAY_MS: '3000',
      SHUTDOWN_TIMEOUT_MS: '20000',
      METRICS_TOKEN: ' a-metrics-token-0123456 ',
      METRICS_PORT: '9464',
      METRICS_HOST: '10.0.0.5',
      REMOTE_DESCRIPTOR_TIMEOUT_MS: '12000',
    });
    expect(config).toEqual({
      port: 0,
      host: '0.0.0.0',
      databasePath: '/tmp/some/app.db',
      redisUrl: 'redis://127.0.0.1:6379',
      nodeEnv: 'production',
      sessionSecret: ['new-secret-0123456789', 'old-secret-0123456789'],
      demoPassword: 'twelve chars',
      trustProxy: 1,
      sessionIdleMs: 5 * 60 * 1000,
      sessionAbsoluteMs: 30 * 60 * 1000,
      logRequests: true,
      logLevel: 'debug',
      allowedOrigins: ['https://admin.example.com', 'http://127.0.0.1:8080'],
      publicOrigin: 'https://slots.example.com',
      loginRateLimit: {
        perAccountAndIp: 5,
        perIp: null,
        perAccount: 30,
        accountSlowdownSeconds: 10,
        windowSeconds: 60,
      },
      teamTokenLimit: { perIp: 5, windowSeconds: 900 },
      slotEvents: {
        eventsPerSessionPerMinute: 100,
        eventsPerAddressPerMinute: 1000,
        flushMs: 1000,
        maxPendingRows: 10_000,
        canary: { enabled: false, checkMs: 10_000, windowMs: 15 * 60_000, minLoads: 200, minVisitors: 25, margin: 0.1 },
      },
      serverTimeouts: { headersTimeoutMs: 2_000, requestTimeoutMs: 4_000, keepAliveTimeoutMs: 65_000 },
      shutdown: { drainDelayMs: 3_000, timeoutMs: 20_000 },
      metrics: { token: 'a-metrics-token-0123456', port: 9464, host: '10.0.0.5' },
      remoteDescriptorTimeoutMs: 12_000,
    });
  });

  it.each(['3s', '-1', '99', '30001', '1e4'])(
    'refuses REMOTE_DESCRIPTOR_TIMEOUT_MS=%s, naming the variable and its bounds',
    (value) => {
      expect(() => readConfig({ REMOTE_DESCRIPTOR_TIMEOUT_MS: value })).toThrow(
        `REMOTE_DESCRIPTOR_TIMEOUT_MS="${value}" is not valid: expected a whole number of milliseconds from 100 to ` +
          '30000 (default 3000).',
      );
    },
  );

  it('reads ALLOWED_ORIGINS in any spelling of an origin as the origin a browser sends', () => {
    const config = readConfig({ ALLOWED_ORIGINS: 'https://Admin.Example.com:443/, https://bücher.example' });
    expect(config.allowedOrigins).toEqual(['https://admin.example.com', 'https://xn--bcher-kva.example']);
  });

  it('warns of an https PUBLIC_URL that this server cannot see as TLS: no TRUST_PROXY, no certificate', () => {
    const warning = (env: NodeJS.ProcessEnv) => publicUrlWithoutTlsWarning(readConfig(env));
    expect(warning({ PUBLIC_URL: 'https://admin.example.com' })).toBe(
      'PUBLIC_URL is https://admin.example.com, but this server sees no TLS: it speaks plain HTTP and TRUST_PROXY is ' +
        'not set, so it cannot learn that a request came over HTTPS. The session cookie goes without Secure and no ' +
        'HSTS is sent. Set TRUST_PROXY to the proxy that ends TLS (it must send X-Forwarded-Proto), or TLS_CERT_FILE ' +
        'and TLS_KEY_FILE.',
    );
    expect(warning({ PUBLIC_URL: 'https://admin.example.com', TRUST_PROXY: '0' })).toMatch(/sees no TLS/);
    expect(warning({ PUBLIC_URL: 'https://admin.example.com', TRUST_PROXY: '1' })).toBeUndefined();
    expect(warning({ PUBLIC_URL: 'https://admin.example.com', TRUST_PROXY: 'loopback' })).toBeUndefined();
    expect(warning({ PUBLIC_URL: 'http://127.0.0.1:8080' })).toBeUndefined();
    expect(warning({})).toBeUndefined();
    // Speaking HTTPS itself (TLS_CERT_FILE and TLS_KEY_FILE): nothing to say.
    const tls = { certFile: 'cert.pem', keyFile: 'key.pem' } as unknown as ServerConfig['tls'];
    expect(
      publicUrlWithoutTlsWarning({ publicOrigin: 'https://admin.example.com', tls, trustProxy: false }),
    ).toBeUndefined();
  });

  it('warns of a server listening beyond this machine without PUBLIC_URL: it takes any Host as its own', () => {
    const warning = (env: NodeJS.ProcessEnv) => withoutPublicUrlWarning(readConfig(env));
    expect(warning({ HOST: '0.0.0.0' })).toBe(
      "PUBLIC_URL is not set and this server listens on 0.0.0.0: it takes a page at whatever address a request's " +
        'Host header names as its own, so a page of another site whose name was made to point at this server (DNS ' +
        'rebinding) may send it changes and sign-ins. Set PUBLIC_URL to where staff open the product, and ' +
        'ALLOWED_ORIGINS to any other address they use.',
    );
    expect(warning({ HOST: '10.0.0.5' })).toMatch(/^PUBLIC_URL is not set and this server listens on 10\.0\.0\.5:/);
    expect(warning({ HOST: '0.0.0.0', PUBLIC_URL: 'https://admin.example.com' })).toBeUndefined();
    for (const host of ['127.0.0.1', '127.0.0.2', 'localhost', '::1']) expect(warning({ HOST: host })).toBeUndefined();
    expect(warning({})).toBeUndefined();
  });

  it('reads PUBLIC_URL as the origin a browser sends, and leaves it unknown when not set', () => {
    expect(readConfig({ PUBLIC_URL: 'https://Admin.Example.com:443/' }).publicOrigin).toBe('https://admin.example.com');
    expect(readConfig({ PUBLIC_URL: ' http://127.0.0.1:8080 ' }).publicOrigin).toBe('http://127.0.0.1:8080');
    expect(readConfig({ PUBLIC_URL: ' ' }).publicOrigin).toBeUndefined();
    expect(readConfig({}).publicOrigin).toBeUndefined();
  });

  it.each<[Record<string, string>, RegExp]>([
    [
      { PUBLIC_URL: 'https://admin.example.com/slots/' },
      /^PUBLIC_URL="https:\/\/admin.example.com\/slots\/" is not where the product's pages are opened: it has a path, a query or a fragment \(the pages are served at their origin's root\)\. Give http\(s\):\/\/host\[:port\], e\.g\. https:\/\/admin\.example\.com\.$/,
    ],
    [{ PUBLIC_URL: 'https://admin.example.com?x' }, /: it has a path, a query or a fragment/],
    [{ PUBLIC_URL: 'https://admin.example.com/%2e' }, /: it has a path, a query or a fragment/],
    [{ PUBLIC_URL: 'https://admin.example.com:99999' }, /: its port is above 65535\. Give/],
    [{ PUBLIC_URL: 'admin.example.com' }, /PUBLIC_URL="admin.example.com" .*: it is not a URL \(a scheme and a host\)/],
    [{ PUBLIC_URL: 'ftp://admin.example.com' }, /: its scheme is ftp: \(http or https\)/],
    [{ PUBLIC_URL: 'https://ops:secret@admin.example.com' }, /: it holds a user name or password/],
    [{ PUBLIC_URL: 'https://*.example.com' }, /: its host is a pattern/],
    [{ PORT: 'http' }, /PORT="http" is not a port number/],
    [{ PORT: '70000' }, /PORT/],
    [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL/],
    [{ REDIS_URL: 'http://localhost:6379' }, /redis:\/\/ or rediss:\/\//],
    [{ SESSION_SECRET: 'short' }, /SESSION_SECRET must be at least 16 characters/],
    [{ SESSION_SECRET: ' , ' }, /^SESSION_SECRET holds no secret, only commas and spaces\.$/],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL="verbose" is not a level: one of trace, debug, info, warn, error, fatal/],
    [{ TRUST_PROXY: 'yes' }, /TRUST_PROXY/],
    [{ TRUST_PROXY: '10.0.0.0/8,proxy.internal' }, /TRUST_PROXY/],
    [{ PORT: '4000', METRICS_PORT: '4000' }, /^METRICS_PORT=4000 is the app's PORT too/],
    [{ DATABASE_PATH: process.cwd() }, /^DATABASE_PATH=".*" is a folder: name the database file, e\.g\. .*app\.db\.$/],
    [{ DEMO_PASSWORD: 'too-short' }, /DEMO_PASSWORD must be at least 12 characters/],
    [{ SESSION_IDLE_MINUTES: '0' }, /SESSION_IDLE_MINUTES="0" must be a positive number/],
    [{ SESSION_IDLE_MINUTES: '1e12' }, /SESSION_IDLE_MINUTES="1e12" must be at most 43200\./],
    [{ SESSION_ABSOLUTE_HOURS: '8761' }, /SESSION_ABSOLUTE_HOURS="8761" must be at most 8760\./],
    [{ SESSION_ABSOLUTE_HOURS: 'soon' }, /SESSION_ABSOLUTE_HOURS/],
    [{ LOG_REQUESTS: 'maybe' }, /LOG_REQUESTS="maybe" is not valid: expected true or false/],
    [{ ALLOWED_ORIGINS: 'https://admin.example.com/path' }, /ALLOWED_ORIGINS/],
    [{ LOGIN_RATE_LIMIT: 'lots' }, /LOGIN_RATE_LIMIT/],
    [{ TEAM_TOKEN_RATE_LIMIT: '0' }, /TEAM_TOKEN_RATE_LIMIT="0" is not valid/],
    [
      { CANARY_ROLLBACK_WINDOW_MINUTES: '90' },
      /CANARY_ROLLBACK_WINDOW_MINUTES="90" is not valid: expected from 1 to 60/,
    ],
    [{ CANARY_ROLLBACK_MARGIN_POINTS: '5.5' }, /CANARY_ROLLBACK_MARGIN_POINTS/],
    [
      { CANARY_ROLLBACK_MARGIN_POINTS: '100' },
      /CANARY_ROLLBACK_MARGIN_POINTS="100" is not valid: expected from 0 to 99/,
    ],
    // A misspelt "off" must not leave the automatic rollback on without a word.
    [{ CANARY_AUTO_ROLLBACK: 'disabled' }, /CANARY_AUTO_ROLLBACK="disabled" is not valid: expected true or false/],
    [{ TRUST_PROXY: 'every proxy' }, /TRUST_PROXY="every proxy" is not valid: expected false, a hop count, or/],
    [{ SLOT_EVENTS_PER_SESSION_PER_MINUTE: '0' }, /SLOT_EVENTS_PER_SESSION_PER_MINUTE/],
    [{ HEADERS_TIMEOUT_MS: '60000', REQUEST_TIMEOUT_MS: '1000' }, /HEADERS_TIMEOUT_MS/],
    [{ SHUTDOWN_TIMEOUT_MS: '0' }, /SHUTDOWN_TIMEOUT_MS/],
    [{ METRICS_TOKEN: 'short' }, /METRICS_TOKEN must be at least 16 characters/],
    [{ METRICS_TOKEN: 'sixteen chars or more' }, /METRICS_TOKEN .* without spaces/],
    // The Kubernetes example's values, long enough for every other check: a Secret applied unedited.
    [
      { SESSION_SECRET: 'PLACEHOLDER-replace-with-openssl-rand-hex-32' },
      /^SESSION_SECRET="PLACEHOLDER-replace-with-openssl-rand-hex-32" is not valid: expected a secret of your own, not the example's placeholder \(deploy\/kubernetes\/secret\.example\.yaml\): openssl rand -hex 32\.$/,
    ],
    [
      { SESSION_SECRET: 'a-real-secret-of-32-characters-x,PLACEHOLDER-old-one' },
      /SESSION_SECRET="PLACEHOLDER-old-one"/,
    ],
    [
      { METRICS_TOKEN: 'PLACEHOLDER-replace-with-openssl-rand-hex-24' },
      /^METRICS_TOKEN=.* placeholder .*openssl rand -hex 24\.$/,
    ],
    [{ METRICS_PORT: 'prometheus' }, /METRICS_PORT/],
    [{ METRICS_PORT: '70000' }, /METRICS_PORT=70000 is not a port/],
    [
      { TRUST_PROXY: 'true' },
      /TRUST_PROXY="true" is not valid: .*give the proxy's address or subnet .* or the number of proxy hops/,
    ],
    [{ TRUST_PROXY: ' TRUE ' }, /TRUST_PROXY/],
    [{ DATABASE_URL: 'mysql://db/slots', SESSION_SECRET: SECRET }, /DATABASE_URL must start with postgres:\/\//],
    [{ DATABASE_URL: 'postgres://db:port/x', SESSION_SECRET: SECRET }, /DATABASE_URL is not a URL/],
    [{ DATABASE_URL: 'postgres://db/slots' }, /SESSION_SECRET must be set with DATABASE_URL/],
    [
      { DATABASE_URL: 'postgres://db/slots?sslmode=disabled', SESSION_SECRET: SECRET },
      /DATABASE_URL's sslmode "disabled" is not one the driver knows: use disable, prefer, require, verify-ca, verify-full, no-verify/,
    ],
    [{ DATABASE_URL: 'postgres://db/slots', SESSION_SECRET: SECRET, DATABASE_POOL_SIZE: '0' }, /DATABASE_POOL_SIZE/],
    [
      { DATABASE_URL: 'postgres://db/slots', SESSION_SECRET: SECRET, DATABASE_STATEMENT_TIMEOUT_MS: 'soon' },
      /DATABASE_STATEMENT_TIMEOUT_MS/,
    ],
  ])('refuses %j with a message naming the variable', (env, message) => {
    expect(() => readConfig(env)).toThrow(message);
    try {
      readConfig(env);
    } catch (error) {
      if (!(error instanceof ConfigError)) expect((error as Error).name).toBe('InvalidSettingError');
    }
  });

  it('reads DATABASE_URL with its pool size and statement timeout (TLS stays in the URL)', () => {
    const url = 'postgresql://slots:pw@db.internal:5432/slots?sslmode=verify-full';
    expect(readConfig({ DATABASE_URL: url, SESSION_SECRET: SECRET }).postgres).toEqual({
      url,
      poolSize: 10,
      statementTimeoutMs: 5000,
    });
    const tuned = readConfig({
      DATABASE_URL: url,
      SESSION_SECRET: SECRET,
      DATABASE_POOL_SIZE: '25',
      DATABASE_STATEMENT_TIMEOUT_MS: '1500',
    });
    expect(tuned.postgres).toEqual({ url, poolSize: 25, statementTimeoutMs: 1500 });
    expect(readConfig({}).postgres).toBeUndefined();
  });

  it('resolves a relative DATABASE_PATH against the working directory', () => {
    expect(readConfig({ DATABASE_PATH: 'db/x.db' }).databasePath).toBe(path.resolve('db/x.db'));
  });
});
