import { randomBytes } from 'node:crypto';
import { OPERATOR_ROLE } from '../../shared/releases';
import type { JsonObject, Tenant } from '../../shared';
import type { App } from '../app';
import { lastAdministratorProblem, readAccessSnapshot, type AccessSnapshot } from '../auth/administrators';
import { hashPassword } from '../auth/password-hash';
import { PASSWORD_MIN_LENGTH } from '../auth/username';
import { DEMO_TENANTS } from './demo-records';
import type { SignInAccount } from '../start-message';

/** The demo account's username. */
export const DEMO_USERNAME = 'admin';

export interface DemoOptions {
  /** Password of `admin` when this start creates the account (DEMO_PASSWORD); generated when absent. */
  adminPassword?: string | undefined;
  /** Told of each missing demo tenant this start left out, with why (see seedDemoData), for the start's log. */
  onTenantLeftOut?: (message: string) => void;
}

/** The demo account as a start left it: what the start message tells the operator. */
export type DemoAccount = SignInAccount;

/**
 * Creates what is missing of the demo data: the tenants, their records (a tenant's records of a resource are
 * seeded only while it has none) and the account `admin`, member of every demo tenant. Safe to run on every start
 * and from several processes at once on the same database.
 *
 * A demo tenant an operator removed comes back, as the operators' guide says, unless no account could administer
 * with it, as `tenant:add` refuses it (administrators.ts): a new tenant has no members, so an account that operates by
 * its memberships' roles alone would hold releases:manage and placements:edit in every tenant but that one, and
 * nobody could manage releases or placements any more. Such a tenant is left out, and `onTenantLeftOut` told why.
 */
export async function seedDemoData(app: App, options: DemoOptions): Promise<DemoAccount> {
  // The account first: a new `admin` belongs to no tenant yet, so the tenants made next take it as a member, and the
  // check counts it (an operator by its own role) as administering with them.
  const account = await ensureDemoAccount(app, options);
  const leftOut = await seedTenantsAndRecords(app, account.created);
  for (const { tenant, problem } of leftOut) {
    options.onTenantLeftOut?.(
      `The demo tenant "${tenant.id}" is missing and was not made again: ${problem} (tenant:add refuses it too). ` +
        'It comes back at a start where an account would still administer with it, ' +
        'such as an operator by its own role.',
    );
  }
  if (account.created) await joinDemoTenants(app);
  return account;
}

/** A demo tenant the seed left out, and why. */
interface TenantLeftOut {
  tenant: Tenant;
  problem: string;
}

/**
 * In one exclusive transaction (SQLite's write lock, PostgreSQL's advisory lock): instances starting together, on
 * one file or on several hosts sharing one PostgreSQL, must not both seed. Resolves to the tenants it left out.
 *
 * The accounts of no tenant join the demo tenants it makes only on an installation with no tenant yet: made with
 * `user:add` before the first start, they had none to join. Later, an account of no tenant is one an operator left
 * so (its tenant removed, its memberships taken away), which cannot sign in to any: a demo tenant made again must not
 * give it one back, silently, at every start. A new `admin` (`adminCreated`, made by this start) joins either way.
 */
async function seedTenantsAndRecords(app: App, adminCreated: boolean): Promise<TenantLeftOut[]> {
  const leftOut: TenantLeftOut[] = [];
  // Read before the transaction: a query outside it would wait for SQLite's one connection, which it holds.
  const admin = adminCreated ? await app.users.findByUsername(DEMO_USERNAME) : undefined;
  await app.storage.exclusive(async (db) => {
    const firstSeed = (await app.tenants.list(db)).length === 0;
    const joining = firstSeed ? await app.tenants.usersWithoutTenant(db) : admin ? [admin.id] : [];
    for (const { tenant, authors, articles } of DEMO_TENANTS) {
      const isNew = !(await app.tenants.get(tenant.id, db));
      if (isNew) {
        // Read in this transaction, after the tenants it made: what is checked is what is changed.
        const before = await readAccessSnapshot(db, app.storage.dialect);
        const problem = lastAdministratorProblem(before, withDemoTenant(before, tenant.id, joining));
        if (problem !== null) {
          leftOut.push({ tenant, problem });
          continue;
        }
        await app.tenants.save(tenant, db);
        // Accounts made with user:add before the first start had no tenant to join; they get the demo ones.
        for (const userId of joining) await app.tenants.addMembership(userId, tenant.id, db);
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
  return leftOut;
}

/** The snapshot with a new demo tenant, whose members are the accounts of no tenant (the seed adds them to it). */
function withDemoTenant(snapshot: AccessSnapshot, id: string, joining: readonly number[]): AccessSnapshot {
  const memberships = new Map(snapshot.memberships);
  for (const userId of joining) memberships.set(userId, new Map(memberships.get(userId)).set(id, null));
  return { ...snapshot, tenantIds: [...snapshot.tenantIds, id], memberships };
}

async function ensureDemoAccount(app: App, options: DemoOptions): Promise<DemoAccount> {
  const existing = await app.users.findByUsername(DEMO_USERNAME);
  // An existing `admin` is left as it is: without a role of its own it is an editor an operator made of it
  // (`user:add admin --role none`), which a start must not undo.
  if (existing) return { username: DEMO_USERNAME, created: false, passwordGenerated: false };
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
  return { username: DEMO_USERNAME, created: true, password, passwordGenerated: given === undefined };
}

/** Makes the new `admin` a member of every demo tenant there is (one left out is none to join). */
async function joinDemoTenants(app: App): Promise<void> {
  const user = await app.users.findByUsername(DEMO_USERNAME);
  const there = new Set((await app.tenants.list()).map((tenant) => tenant.id));
  if (user)
    await app.tenants.setMemberships(
      user.id,
      DEMO_TENANTS.map(({ tenant }) => tenant.id).filter((id) => there.has(id)),
    );
}
