/*
 * Above 300 lines for one reason: every table of releases (releases, rollouts, audit, reload requests) is read and
 * written here on either engine, so a rollout change is checked against the database and audited in one
 * transaction.
 */
import type { Kysely, Selectable } from 'kysely';
import type {
  AuditAction,
  AuditEntry,
  CanaryRollout,
  JsonSchema,
  JsonValue,
  RemoteRelease,
  RemoteRollout,
} from '../../shared';
import type { AppSchema, RemoteReleasesTable, RemoteRolloutsTable } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';

/** What a release holds of its remote's descriptor file, as stored with it. */
export interface ReleaseDescriptor {
  components: string[];
  formComponents: string[];
  props: Record<string, JsonSchema>;
  /** The remote kit that built it, when its descriptor said (kept in the same JSON: no column of its own). */
  kit?: string;
}

/** A release about to be published (its time is the store's). */
export interface NewRelease extends ReleaseDescriptor {
  remote: string;
  version: string;
  entry: string;
  publishedBy: string;
}

/** What one change of a rollout records in the audit trail. */
export type RolloutNext = Omit<RemoteRollout, 'remote'>;

/** The audit actions that change which release is in force. */
const ROLLOUT_ACTIONS = [
  'activate',
  'rollback',
  'deactivate',
  'canary',
  'canary-end',
  'canary-auto-rollback',
  'rollout-start',
  'rollout-step',
  'rollout-promote',
  'rollout-abort',
  'rollout-rolled-back',
] as const;

/** The server's own rollbacks of a canary found worse: the canary watch's, and a progressive rollout's. */
const AUTOMATIC_ROLLBACKS = ['canary-auto-rollback', 'rollout-rolled-back'] as const;

export interface RolloutChange {
  remote: string;
  action: (typeof ROLLOUT_ACTIONS)[number];
  actor: string;
  /**
   * The rollout it becomes; or how it follows from the rollout in the database, read in the transaction (a change
   * that depends on what is in force must not take another host's copy of it, up to a poll old). Throwing there
   * refuses the change: nothing is written.
   */
  next: RolloutNext | ((before: RemoteRollout) => RolloutNext);
  /** Why, recorded with the rollout it became (an automatic rollback says what it measured). */
  reason?: string;
  /**
   * Changes only while this canary version still runs (checked in the transaction): hosts that decide the same
   * automatic rollback at once record it once.
   */
  onlyIfCanary?: string;
}

/** A change of a rollout as it was made: the rollout in the database it replaced, and the one it became. */
export interface RolloutChanged {
  before: RemoteRollout;
  after: RemoteRollout;
}

/** A version already published for that remote: releases are immutable. */
export class ReleaseExistsError extends Error {
  constructor(remote: string, version: string) {
    super(`Remote "${remote}" already has a release "${version}": releases are immutable, publish another version.`);
    this.name = 'ReleaseExistsError';
  }
}

const NO_ROLLOUT = (remote: string): RemoteRollout => ({ remote, active: null, canary: null });

/**
 * The releases of remotes (immutable rows), the rollout of each remote (which release is in force) and the audit
 * trail of every change, on either engine. Each change and its audit entry are written in one transaction, so the
 * trail never misses a change nor records one that did not happen.
 */
export class ReleaseStore {
  constructor(private readonly engine: StorageEngine) {}

  /** Stores a new release and audits it; rejects with ReleaseExistsError when the version exists. */
  async publish(release: NewRelease, actor: string = release.publishedBy): Promise<RemoteRelease> {
    const now = Date.now();
    return this.engine.exclusive(async (db) => {
      const existing = await db
        .selectFrom('remote_releases')
        .select('id')
        .where('remote', '=', release.remote)
        .where('version', '=', release.version)
        .executeTakeFirst();
      if (existing) throw new ReleaseExistsError(release.remote, release.version);
      const descriptor: ReleaseDescriptor = {
        components: release.components,
        formComponents: release.formComponents,
        props: release.props,
        ...(release.kit === undefined ? {} : { kit: release.kit }),
      };
      await db
        .insertInto('remote_releases')
        .values({
          remote: release.remote,
          version: release.version,
          entry: release.entry,
          descriptor: JSON.stringify(descriptor),
          published_by: release.publishedBy,
          published_at: now,
        })
        .execute();
      await audit(db, release.remote, 'publish', actor, now, null, { version: release.version, entry: release.entry });
      return {
        ...descriptor,
        remote: release.remote,
        version: release.version,
        entry: release.entry,
        publishedBy: release.publishedBy,
        publishedAt: new Date(now).toISOString(),
      };
    });
  }

  /** One release, or undefined. */
  async release(remote: string, version: string): Promise<RemoteRelease | undefined> {
    const row = await this.engine.db
      .selectFrom('remote_releases')
      .selectAll()
      .where('remote', '=', remote)
      .where('version', '=', version)
      .executeTakeFirst();
    return row && toRelease(row);
  }

  /** Every release, newest first. */
  async releases(): Promise<RemoteRelease[]> {
    const rows = await this.engine.db.selectFrom('remote_releases').selectAll().orderBy('id', 'desc').execute();
    return rows.map(toRelease);
  }

  /** The newest release's id (0 with none): it moves whenever a release is published, on any host. */
  lastReleaseId(): Promise<number> {
    return this.lastId('remote_releases');
  }

  /** Asks every host to re-read its REMOTES_CONFIG (`npm run remotes:reload`); seen at their next poll. */
  async requestConfigReload(): Promise<void> {
    await this.engine.db.insertInto('remote_config_reloads').values({ requested_at: Date.now() }).execute();
  }

  /** The newest reload request's id (0 with none). */
  lastConfigReload(): Promise<number> {
    return this.lastId('remote_config_reloads');
  }

  private async lastId(table: 'remote_releases' | 'remote_config_reloads'): Promise<number> {
    const row = await this.engine.db
      .selectFrom(table)
      .select((eb) => eb.fn.max('id').as('last'))
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Every remote's rollout. */
  async rollouts(): Promise<RemoteRollout[]> {
    const rows = await this.engine.db.selectFrom('remote_rollouts').selectAll().orderBy('remote').execute();
    return rows.map(toRollout);
  }

  async rollout(remote: string): Promise<RemoteRollout> {
    const row = await this.engine.db
      .selectFrom('remote_rollouts')
      .selectAll()
      .where('remote', '=', remote)
      .executeTakeFirst();
    return row ? toRollout(row) : NO_ROLLOUT(remote);
  }

  /**
   * Sets a remote's rollout and audits the change (before and after); resolves to both, or null when `onlyIfCanary`
   * no longer runs (nothing changed).
   */
  async changeRollout(change: RolloutChange): Promise<RolloutChanged | null> {
    return this.engine.exclusive((db) => changeRolloutIn(db, change, Date.now()));
  }

  /** Records a change that is not a release's or a rollout's (a token created or revoked). */
  async record(remote: string, action: AuditAction, actor: string, before: JsonValue, after: JsonValue): Promise<void> {
    await audit(this.engine.db, remote, action, actor, Date.now(), before, after);
  }

  /** The audit trail of a remote, newest first. */
  async history(remote: string): Promise<AuditEntry[]> {
    const rows = await this.engine.db
      .selectFrom('remote_audit')
      .selectAll()
      .where('remote', '=', remote)
      .orderBy('id', 'desc')
      .execute();
    return rows.map(toAuditEntry);
  }

  /** The last change of each remote's rollout (who put in force what is in force), by remote. */
  async lastRolloutChanges(): Promise<Map<string, AuditEntry>> {
    const db = this.engine.db;
    const rows = await db
      .selectFrom('remote_audit')
      .selectAll()
      .where(
        'id',
        'in',
        db
          .selectFrom('remote_audit')
          .select((select) => select.fn.max('id').as('id'))
          .where('action', 'in', ROLLOUT_ACTIONS)
          .groupBy('remote'),
      )
      .execute();
    return new Map(rows.map((row) => [row.remote, toAuditEntry(row)]));
  }

  /**
   * Each remote's automatic rollbacks (a canary, or a plan's, found worse), the last one of each version, newest first:
   * a release that failed its visitors once is offered again with that said. One row per version rolled back.
   */
  async automaticRollbacks(): Promise<Map<string, AuditEntry[]>> {
    const rows = await this.engine.db
      .selectFrom('remote_audit')
      .selectAll()
      .where('action', 'in', AUTOMATIC_ROLLBACKS)
      .orderBy('id', 'desc')
      .execute();
    const byRemote = new Map<string, AuditEntry[]>();
    const versionsSeen = new Set<string>();
    for (const row of rows) {
      const entry = toAuditEntry(row);
      const canary = (entry.before as { canary?: { version?: unknown } } | null)?.canary?.version;
      const key = JSON.stringify([entry.remote, canary]);
      if (versionsSeen.has(key)) continue;
      versionsSeen.add(key);
      byRemote.set(entry.remote, [...(byRemote.get(entry.remote) ?? []), entry]);
    }
    return byRemote;
  }

  /**
   * The last change of `remote` among `actions` (by default those that change its rollout), or undefined: who moved
   * what a refused change was chosen on. One remote's rows, newest first, by the audit's index.
   */
  async lastChangeOf(
    remote: string,
    actions: readonly AuditAction[] = ROLLOUT_ACTIONS,
  ): Promise<AuditEntry | undefined> {
    const row = await this.engine.db
      .selectFrom('remote_audit')
      .selectAll()
      .where('remote', '=', remote)
      .where('action', 'in', actions)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
    return row && toAuditEntry(row);
  }
}

/**
 * {@link ReleaseStore.changeRollout} inside a transaction the caller holds (exclusive): a rollout plan's change
 * writes its plan in the same one (rollout-plan-store.ts).
 */
export async function changeRolloutIn(
  db: Kysely<AppSchema>,
  change: RolloutChange,
  now: number,
): Promise<RolloutChanged | null> {
  const row = await db.selectFrom('remote_rollouts').selectAll().where('remote', '=', change.remote).executeTakeFirst();
  const before = row ? toRollout(row) : NO_ROLLOUT(change.remote);
  if (change.onlyIfCanary !== undefined && before.canary?.version !== change.onlyIfCanary) return null;
  const next: RemoteRollout = {
    remote: change.remote,
    ...(typeof change.next === 'function' ? change.next(before) : change.next),
  };
  const values = {
    active_version: next.active,
    canary_version: next.canary?.version ?? null,
    canary_percent: next.canary?.percent ?? 0,
    canary_tenants: JSON.stringify(next.canary?.tenants ?? []),
    updated_at: now,
  };
  if (row) await db.updateTable('remote_rollouts').set(values).where('remote', '=', change.remote).execute();
  else
    await db
      .insertInto('remote_rollouts')
      .values({ remote: change.remote, ...values })
      .execute();
  const after = change.reason === undefined ? rolloutJson(next) : { ...rolloutJson(next), reason: change.reason };
  await audit(db, change.remote, change.action, change.actor, now, rolloutJson(before), after);
  return { before, after: next };
}

function toAuditEntry(row: Selectable<AppSchema['remote_audit']>): AuditEntry {
  return {
    id: row.id,
    remote: row.remote,
    action: row.action as AuditAction,
    actor: row.actor,
    at: new Date(Number(row.at)).toISOString(),
    before: JSON.parse(row.before) as JsonValue,
    after: JSON.parse(row.after) as JsonValue,
  };
}

/** Writes one audit entry (in the caller's transaction, or alone). */
export async function audit(
  db: Kysely<AppSchema>,
  remote: string,
  action: AuditAction,
  actor: string,
  at: number,
  before: JsonValue,
  after: JsonValue,
): Promise<void> {
  await db
    .insertInto('remote_audit')
    .values({ remote, action, actor, at, before: JSON.stringify(before), after: JSON.stringify(after) })
    .execute();
}

function rolloutJson(rollout: RemoteRollout): { [key: string]: JsonValue } {
  return {
    active: rollout.active,
    canary: rollout.canary ? { ...rollout.canary, tenants: [...rollout.canary.tenants] } : null,
  };
}

function toRelease(row: Selectable<RemoteReleasesTable>): RemoteRelease {
  const descriptor = JSON.parse(row.descriptor) as ReleaseDescriptor;
  return {
    remote: row.remote,
    version: row.version,
    entry: row.entry,
    components: descriptor.components,
    formComponents: descriptor.formComponents,
    props: descriptor.props,
    ...(descriptor.kit === undefined ? {} : { kit: descriptor.kit }),
    publishedBy: row.published_by,
    publishedAt: new Date(Number(row.published_at)).toISOString(),
  };
}

/** A rollout as its row holds it (read by tenant:remove in its own transaction, tenant-canaries.ts). */
export function toRollout(row: Selectable<RemoteRolloutsTable>): RemoteRollout {
  const canary: CanaryRollout | null =
    row.canary_version === null
      ? null
      : {
          version: row.canary_version,
          percent: Number(row.canary_percent),
          tenants: JSON.parse(row.canary_tenants) as string[],
        };
  return { remote: row.remote, active: row.active_version, canary };
}
