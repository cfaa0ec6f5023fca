import { randomBytes } from 'node:crypto';
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
 * and from several processes at once on the same file.
 */
export async function seedDemoData(app: App, options: DemoOptions): Promise<DemoAccount> {
  seedTenantsAndRecords(app);
  return ensureDemoAccount(app, options);
}

function seedTenantsAndRecords(app: App): void {
  const seed = app.database.db.transaction(() => {
    const existingUsersWithoutTenant = app.tenants.usersWithoutTenant();
    for (const { tenant, authors, articles } of DEMO_TENANTS) {
      const isNew = !app.tenants.get(tenant.id);
      if (isNew) {
        app.tenants.save(tenant);
        // Accounts made with user:add before the first start had no tenant to join; they get the demo ones.
        for (const userId of existingUsersWithoutTenant) app.tenants.addMembership(userId, tenant.id);
      }
      const authorIds = new Map<string, number>();
      if (app.records.count(tenant.id, 'authors') === 0) {
        for (const author of authors) authorIds.set(author.title, app.records.insert(tenant.id, 'authors', author).id);
      } else {
        for (const record of app.records.list(tenant.id, 'authors')) authorIds.set(record.title, record.id);
      }
      if (app.records.count(tenant.id, 'articles') === 0) {
        for (const { article, author } of articles) {
          const data: JsonObject = { ...article };
          const authorId = author === undefined ? undefined : authorIds.get(author);
          if (authorId !== undefined) data.authorId = authorId;
          app.records.insert(tenant.id, 'articles', data);
        }
      }
    }
  });
  // IMMEDIATE: two instances starting together on one file must not both seed.
  seed.immediate();
}

async function ensureDemoAccount(app: App, options: DemoOptions): Promise<DemoAccount> {
  if (app.users.findByUsername(DEMO_USERNAME)) {
    return { username: DEMO_USERNAME, created: false, passwordGenerated: false };
  }
  const given = options.adminPassword;
  if (given !== undefined && given.length < PASSWORD_MIN_LENGTH) {
    throw new Error(`DEMO_PASSWORD must be at least ${PASSWORD_MIN_LENGTH} characters long.`);
  }
  const password = given ?? randomBytes(12).toString('base64url');
  const hash = await hashPassword(password, app.passwordHashParams);
  if (!app.users.createIfMissing(DEMO_USERNAME, hash, 'Demo administrator')) {
    // Another process created it meanwhile; its password stands.
    return { username: DEMO_USERNAME, created: false, passwordGenerated: false };
  }
  const user = app.users.findByUsername(DEMO_USERNAME);
  if (user)
    app.tenants.setMemberships(
      user.id,
      DEMO_TENANTS.map(({ tenant }) => tenant.id),
    );
  return { username: DEMO_USERNAME, created: true, password, passwordGenerated: given === undefined };
}
