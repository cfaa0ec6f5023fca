import { randomBytes } from 'node:crypto';
import { OPERATOR_ROLE } from '../../shared/releases';
import type { JsonObject } from '../../shared';
import type { App } from '../app';
import { hashPassword } from '../auth/password-hash';
import { PASSWORD_MIN_LENGTH } from '../auth/username';
import { DEMO_TENANTS } from './demo-records';
import type { SignInAccount } from '../start-message';

/** The demo account's username. */
export const DEMO_USERNAME = 'admin';

export interface DemoOptions {
  /** Password of `admin` when this start creates the account (DEMO_PASSWORD); generated when absent. */
  adminPassword?: string | undefined;
}

/** The demo account as a start left it: what the start message tells the operator. */
export type DemoAccount = SignInAccount;

/**
 * Creates what is missing of the demo data: the tenants, their records (a tenant's records of a resource are
 * seeded only while it has none) and the account `admin`, member of every demo tenant. Safe to run on every start
 * and from several processes at once on the same database.
 */
export async function seedDemoData(app: App, options: DemoOptions): Promise<DemoAccount> {
  await seedTenantsAndRecords(app);
  return ensureDemoAccount(app, options);
}

/**
 * In one exclusive transaction (SQLite's write lock, PostgreSQL's advisory lock): instances starting together, on
 * one file or on several hosts sharing one PostgreSQL, must not both seed.
 */
async function seedTenantsAndRecords(app: App): Promise<void> {
  await app.storage.exclusive(async (db) => {
    const existingUsersWithoutTenant = await app.tenants.usersWithoutTenant(db);
    for (const { tenant, authors, articles } of DEMO_TENANTS) {
      const isNew = !(await app.tenants.get(tenant.id, db));
      if (isNew) {
        await app.tenants.save(tenant, db);
        // Accounts made with user:add before the first start had no tenant to join; they get the demo ones.
        for (const userId of existingUsersWithoutTenant) await app.tenants.addMembership(userId, tenant.id, db);
      }
      const authorIds = new Map<string, number>();
      if ((await app.records.count(tenant.id, 'authors', db)) === 0) {
        for (const author of authors) {
          authorIds.set(author.title, (await app.records.insert(tenant.id, 'authors', author, [], db)).id);
        }
      } else {
        for (const record of await app.records.list(tenant.id, 'authors', db)) authorIds.set(record.title, record.id);
      }
      if ((await app.records.count(tenant.id, 'articles', db)) === 0) {
        for (const { article, author } of articles) {
          const data: JsonObject = { ...article };
          const authorId = author === undefined ? undefined : authorIds.get(author);
          if (authorId !== undefined) data.authorId = authorId;
          await app.records.insert(tenant.id, 'articles', data, [], db);
        }
      }
    }
  });
  // Once committed: the stores leave a transaction's writes to their caller to signal.
  app.storage.noteWrite();
}

async function ensureDemoAccount(app: App, options: DemoOptions): Promise<DemoAccount> {
  const existing = await app.users.findByUsername(DEMO_USERNAME);
  if (existing) {
    // Accounts seeded before roles existed: the demo account is the demo's operator (releases of remotes).
    if (existing.roles.length === 0) await app.users.setRole(DEMO_USERNAME, OPERATOR_ROLE);
    return { username: DEMO_USERNAME, created: false, passwordGenerated: false };
  }
  const given = options.adminPassword;
  if (given !== undefined && given.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`DEMO_PASSWORD must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
  }
  const password = given ?? randomBytes(12).toString('base64url');
  const hash = await hashPassword(password, app.auth.passwordHashParams);
  if (!(await app.users.createIfMissing(DEMO_USERNAME, hash, 'Demo administrator'))) {
    // Another process created it meanwhile; its password stands.
    return { username: DEMO_USERNAME, created: false, passwordGenerated: false };
  }
  await app.users.setRole(DEMO_USERNAME, OPERATOR_ROLE);
  const user = await app.users.findByUsername(DEMO_USERNAME);
  if (user)
    await app.tenants.setMemberships(
      user.id,
      DEMO_TENANTS.map(({ tenant }) => tenant.id),
    );
  return { username: DEMO_USERNAME, created: true, password, passwordGenerated: given === undefined };
}
