import { Server } from 'node:http';
import path from 'node:path';
import pino from 'pino';
import request from 'supertest';
import { OPERATOR_ROLE } from '../../shared';
import { createApp, type App, type AppOptions } from '../../server/app';
import { hashPassword, type ScryptParams } from '../../server/auth/password-hash';
import { makeTempDir, type TempDir } from '../temp-dir';
import { registerDemoContent, seedDemoData, type DemoAccount, type DemoOptions } from '../../server/demo';

/** Cheap scrypt parameters: the tests sign in often, and cost is not what they test. */
export const FAST_HASH: ScryptParams = Object.freeze({ N: 2 ** 10, r: 8, p: 1 });
export const TEST_SECRET = 'test-session-secret-0123456789abcdef';
/** The demo password the test apps are given. */
export const DEMO_PASSWORD = 'demo-password-for-tests';

export interface TestApp {
  app: App;
  dir: TempDir;
  databasePath: string;
  /** Closes the app; removes the folder unless `keepData`, a folder given as `dir` too. */
  close(options?: { keepData?: boolean }): Promise<void>;
}

export interface TestAppOptions extends Partial<AppOptions> {
  /**
   * The folder of the database: a fresh temporary one by default; give an earlier app's to reopen its database.
   * A given folder is this app's to remove on `close()` (unless `keepData`), but stays when the start is refused.
   */
  dir?: TempDir;
  /** Registrations before `ready()`, as an entry's `configure` makes them. */
  configure?: (app: App) => void;
}

/**
 * An app on a real SQLite file in a fresh temporary folder (or `dir`, to reopen the same database), silent,
 * with cheap password hashing; `ready()` has run.
 */
export async function createTestApp(overrides: TestAppOptions = {}): Promise<TestApp> {
  const { dir: givenDir, configure, ...options } = overrides;
  const dir = givenDir ?? makeTempDir('slots-server-test-');
  const databasePath = path.join(dir.path, 'app.db');
  let app: App | undefined;
  try {
    // In the try: createApp itself refuses some starts (a bad REMOTES_CONFIG throws there).
    app = createApp({
      databasePath,
      sessionSecret: TEST_SECRET,
      nodeEnv: 'test',
      logger: pino({ level: 'silent' }),
      passwordHashParams: FAST_HASH,
      distDir: path.join(dir.path, 'dist'),
      sessionCleanupIntervalMs: 0,
      ...options,
    });
    configure?.(app);
    await app.ready();
  } catch (error) {
    // A start refused (e.g. slots that break the props contract) leaves nothing open or on disk behind the test, and
    // the test sees the refusal, not a failure to close what the refusal left half made.
    await app?.close().catch(() => undefined);
    if (!givenDir) dir.remove();
    throw error;
  }
  return {
    app,
    dir,
    databasePath,
    close: async ({ keepData = false } = {}) => {
      try {
        await app.close();
      } finally {
        if (!keepData) dir.remove();
      }
    },
  };
}

export interface DemoTestApp extends TestApp {
  /** The demo account as this start left it (created now, or found). */
  demoAccount: DemoAccount;
}

/**
 * The demo app, as `npm start` makes it: demo content registered before `ready()` (then `configure`), demo data
 * seeded after, account `admin` with DEMO_PASSWORD unless `demo` says otherwise.
 */
export async function createDemoApp(overrides: TestAppOptions & { demo?: DemoOptions } = {}): Promise<DemoTestApp> {
  const { demo = { adminPassword: DEMO_PASSWORD }, configure, ...options } = overrides;
  const testApp = await createTestApp({
    ...options,
    configure: (app) => {
      registerDemoContent(app);
      configure?.(app);
    },
  });
  try {
    return { ...testApp, demoAccount: await seedDemoData(testApp.app, demo) };
  } catch (error) {
    await testApp.close();
    throw error;
  }
}

/**
 * Two apps on one database, standing for two hosts: both given `options.storage` (PostgreSQL), or, without it, the
 * second reopening the first's SQLite file (its folder). `create` is createTestApp or createDemoApp. Close them
 * with {@link closeTwoHosts}.
 */
export async function createTwoHosts<T extends TestApp>(
  create: (options: TestAppOptions) => Promise<T>,
  options: TestAppOptions = {},
): Promise<[T, T]> {
  const first = await create(options);
  try {
    return [first, await create(options.storage ? options : { ...options, dir: first.dir })];
  } catch (error) {
    await first.close();
    throw error;
  }
}

/** Closes two hosts of createTwoHosts: on SQLite the second first, leaving the shared folder to the first. */
export async function closeTwoHosts([first, second]: readonly [TestApp, TestApp]): Promise<void> {
  await second.close({ keepData: second.dir === first.dir });
  await first.close();
}

/** Adds a staff account belonging to `tenants` (creating the tenants when missing). */
export async function addUser(
  app: App,
  username: string,
  password: string,
  tenants: string[],
  params: ScryptParams = FAST_HASH,
): Promise<void> {
  for (const id of tenants) if (!(await app.tenants.get(id))) await app.tenants.save({ id, name: id.toUpperCase() });
  const { user } = await app.users.upsert(username, await hashPassword(password, params));
  await app.tenants.setMemberships(user.id, tenants);
}

/** Adds an operator (OPERATOR_ROLE): the caller of the placements and releases APIs. */
export async function addOperator(
  app: App,
  username = 'admin',
  password = DEMO_PASSWORD,
  tenants: string[] = ['acme'],
): Promise<void> {
  await addUser(app, username, password, tenants);
  await app.users.setRole(username, OPERATOR_ROLE);
}

/** addOperator, then a client signed in as them. */
export async function signedInOperator(app: App, username = 'admin', password = DEMO_PASSWORD, tenants = ['acme']) {
  await addOperator(app, username, password, tenants);
  return signedInAgent(app, username, password);
}

/**
 * A cookie-keeping client signed in as `username`: of the app (a server of its own per request), or of a server
 * listening for the whole test (needed for concurrent requests: a per-request server closing drops the keep-alive
 * connections of the others).
 */
export async function signedInAgent(app: App | Server, username = 'admin', password = DEMO_PASSWORD) {
  const agent = request.agent(app instanceof Server ? app : app.handler);
  const response = await agent.post('/login').send({ username, password });
  if (response.status !== 200) throw new Error(`sign-in failed: ${response.status} ${JSON.stringify(response.body)}`);
  return agent;
}

/** `name=value` of the session cookie a response set, or undefined. */
export function sessionCookieOf(response: request.Response): string | undefined {
  const header = response.headers['set-cookie'] as string[] | string | undefined;
  const cookies = Array.isArray(header) ? header : header ? [header] : [];
  const session = cookies.find((cookie) => cookie.startsWith('slots.sid='));
  return session?.split(';', 1)[0];
}
