/**
 * The release store and the team token store on both engines: a SQLite file and a throwaway PostgreSQL (a fresh
 * database per case).
 */
import path from 'node:path';
import { describeWithPostgres, usePostgresDatabases } from '../../testing/server/postgres-server';
import { makeTempDir, type TempDir } from '../../testing/temp-dir';
import { openMigratedStorage, type StorageSettings } from '../storage/open-storage';
import type { StorageEngine } from '../storage/storage-engine';
import { ReleaseExistsError, ReleaseStore, type NewRelease } from './release-store';
import { TeamTokenStore } from './team-token-store';

const RELEASE: NewRelease = {
  remote: 'team_billing',
  version: '1.0.0',
  entry: 'https://cdn.example.com/billing/1.0.0/mf-manifest.json',
  components: ['InvoiceBanner'],
  formComponents: [],
  props: { InvoiceBanner: { type: 'object' } },
  publishedBy: 'token:abc',
};

function storeCases(freshSettings: () => Promise<StorageSettings>): void {
  let engine: StorageEngine;
  let releases: ReleaseStore;
  let tokens: TeamTokenStore;

  beforeEach(async () => {
    engine = await openMigratedStorage(await freshSettings());
    releases = new ReleaseStore(engine);
    tokens = new TeamTokenStore(engine);
  });
  afterEach(() => engine.close());

  it('keeps a release as published, immutable, with its descriptor and the audit of its publication', async () => {
    const published = await releases.publish(RELEASE);
    expect(await releases.release('team_billing', '1.0.0')).toEqual(published);
    expect(published).toMatchObject({ components: ['InvoiceBanner'], props: RELEASE.props, publishedBy: 'token:abc' });
    await expect(releases.publish({ ...RELEASE, entry: 'https://elsewhere.example.com/x.json' })).rejects.toThrow(
      ReleaseExistsError,
    );
    await releases.publish({ ...RELEASE, version: '1.1.0' });
    expect((await releases.releases()).map((release) => release.version)).toEqual(['1.1.0', '1.0.0']);
    expect(await releases.lastReleaseId()).toBeGreaterThan(0);
    const [entry] = await releases.history('team_billing');
    expect(entry).toMatchObject({ action: 'publish', actor: 'token:abc', before: null, after: { version: '1.1.0' } });
  });

  it('changes a rollout and records before and after in the same step', async () => {
    expect(await releases.rollout('team_billing')).toEqual({ remote: 'team_billing', active: null, canary: null });
    await releases.changeRollout({
      remote: 'team_billing',
      action: 'activate',
      actor: 'ops',
      next: { active: '1.0.0', canary: null },
    });
    const canary = { version: '1.1.0', percent: 10, tenants: ['beta'] };
    const changed = await releases.changeRollout({
      remote: 'team_billing',
      action: 'canary',
      actor: 'ops',
      next: { active: '1.0.0', canary },
    });
    expect(changed).toEqual({
      before: { remote: 'team_billing', active: '1.0.0', canary: null },
      after: { remote: 'team_billing', active: '1.0.0', canary },
    });
    expect(await releases.rollouts()).toEqual([{ remote: 'team_billing', active: '1.0.0', canary }]);
    const [last] = await releases.history('team_billing');
    expect(last).toMatchObject({
      action: 'canary',
      actor: 'ops',
      before: { active: '1.0.0', canary: null },
      after: { active: '1.0.0', canary },
    });
  });

  it('ends a canary once when two hosts decide the same automatic rollback at once, with its reason', async () => {
    const canary = { version: '1.1.0', percent: 10, tenants: [] };
    await releases.changeRollout({
      remote: 'team_billing',
      action: 'canary',
      actor: 'ops',
      next: { active: '1.0.0', canary },
    });
    const rollback = {
      remote: 'team_billing',
      action: 'canary-auto-rollback' as const,
      actor: 'auto-rollback',
      next: { active: '1.0.0', canary: null },
      reason: 'canary 1.1.0 failed 30.0 % of 100 loads',
      onlyIfCanary: '1.1.0',
    };
    const outcomes = await Promise.all([releases.changeRollout(rollback), releases.changeRollout(rollback)]);
    expect(outcomes.filter((changed) => changed !== null).map((changed) => changed?.before)).toEqual([
      { remote: 'team_billing', active: '1.0.0', canary },
    ]);
    const rolledBack = (await releases.history('team_billing')).filter(
      (entry) => entry.action === 'canary-auto-rollback',
    );
    // The last change of each rollout: publications and tokens are not changes of what is in force.
    await releases.publish({ ...RELEASE, version: '1.3.0' });
    await releases.record('team_billing', 'token-add', 'cli', null, { id: 'abc' });
    await releases.changeRollout({
      remote: 'team_other',
      action: 'activate',
      actor: 'ops',
      next: { active: '2.0.0', canary: null },
    });
    const last = await releases.lastRolloutChanges();
    expect([...last.keys()].sort()).toEqual(['team_billing', 'team_other']);
    expect(last.get('team_billing')).toEqual(rolledBack[0]);
    expect(last.get('team_other')).toMatchObject({ action: 'activate', after: { active: '2.0.0', canary: null } });
    expect(rolledBack).toEqual([
      expect.objectContaining({
        after: { active: '1.0.0', canary: null, reason: 'canary 1.1.0 failed 30.0 % of 100 loads' },
      }),
    ]);
    // Another canary running now is not ended by a decision about the one before.
    await releases.changeRollout({
      remote: 'team_billing',
      action: 'canary',
      actor: 'ops',
      next: { active: '1.0.0', canary: { ...canary, version: '1.2.0' } },
    });
    expect(await releases.changeRollout(rollback)).toBeNull();
    expect((await releases.rollout('team_billing')).canary?.version).toBe('1.2.0');
  });

  it('stores a token hashed; it checks until revoked or expired', async () => {
    const created = await tokens.create('team_billing', null);
    const rows = await engine.db.selectFrom('remote_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(created.token.slice(-20));
    expect(await tokens.check(created.token)).toEqual({ status: 'valid', id: created.id, remote: 'team_billing' });
    expect(await tokens.check(`${created.token}x`)).toEqual({ status: 'invalid' });
    const beforeRevoke = Date.now();
    expect(await tokens.revoke(created.id)).toBe('team_billing');
    expect(await tokens.revoke(created.id)).toBeNull();
    // The whole token, secret included, says which of the team's tokens it was and when it stopped; a near miss, nothing.
    const revoked = await tokens.check(created.token);
    expect(revoked).toEqual({ status: 'revoked', id: created.id, at: expect.any(Number) });
    expect((revoked as { at: number }).at).toBeGreaterThanOrEqual(beforeRevoke);
    expect(await tokens.check(`${created.token}x`)).toEqual({ status: 'invalid' });
    const expired = await tokens.create('team_billing', -1000);
    expect(await tokens.check(expired.token)).toEqual({ status: 'expired', id: expired.id, at: expired.expiresAt });
    // Its last character changed (to another one: a token may end with the "A" this test once always wrote there).
    const nearMiss = `${expired.token.slice(0, -1)}${expired.token.endsWith('A') ? 'B' : 'A'}`;
    expect(await tokens.check(nearMiss)).toEqual({ status: 'invalid' });
  });
}

describe('release stores on SQLite', () => {
  let folder: TempDir;
  let count = 0;
  beforeAll(() => {
    folder = makeTempDir('slots-release-stores-');
  });
  afterAll(() => folder.remove());
  storeCases(() => Promise.resolve({ kind: 'sqlite', path: path.join(folder.path, `db${++count}.db`) }));
});

describeWithPostgres()('release stores on PostgreSQL', () => {
  const databases = usePostgresDatabases('release_stores', { poolSize: 2, statementTimeoutMs: 5000 });
  storeCases(() => databases.create());
});
