import type { Kysely, Selectable } from 'kysely';
import type { AuditAction, JsonValue, RemoteRollout, RolloutPlan, RolloutPlanState, RolloutStep } from '../../shared';
import type { AppSchema, RemoteRolloutPlansTable } from '../storage/app-schema';
import type { StorageEngine } from '../storage/storage-engine';
import { audit, changeRolloutIn, type RolloutChange } from './release-store';

/** A plan as stored: `revision` moves with every change of it (never on the wire). */
export interface StoredRolloutPlan extends RolloutPlan {
  revision: number;
}

/** The plan's fields a change sets (who started it and when stay as they are, but for a new plan). */
export type PlanFields = Omit<RolloutPlan, 'remote' | 'share'>;

/** What one change of a plan does, in one transaction: the plan, and the rollout it moves or an audit entry of its own. */
export interface PlanChange {
  plan: PlanFields;
  /** The rollout change (audited with the plan's step in its reason). */
  rollout?: Omit<RolloutChange, 'remote'>;
  /** For a change of the plan alone (pause, resume, stop). */
  audit?: { action: AuditAction; actor: string; before: JsonValue; after: JsonValue };
}

/**
 * Each remote's progressive rollout plan (the last one started), on either engine. A change is decided from the plan
 * and the rollout as the database holds them in the transaction that writes it, and written only from the revision
 * read: hosts that decide the same step at once make it, and audit it, once.
 */
export class RolloutPlanStore {
  constructor(private readonly engine: StorageEngine) {}

  async plans(): Promise<StoredRolloutPlan[]> {
    const rows = await this.engine.db.selectFrom('remote_rollout_plans').selectAll().orderBy('remote').execute();
    return rows.map(toPlan);
  }

  async plan(remote: string): Promise<StoredRolloutPlan | undefined> {
    const row = await this.engine.db
      .selectFrom('remote_rollout_plans')
      .selectAll()
      .where('remote', '=', remote)
      .executeTakeFirst();
    return row && toPlan(row);
  }

  /**
   * Changes `remote`'s plan as `decide` says from the plan and the rollout in the database (null: nothing to do;
   * throwing refuses, nothing written). Resolves to the plan it became, or null when nothing changed.
   */
  async change(
    remote: string,
    decide: (plan: StoredRolloutPlan | undefined, rollout: RemoteRollout) => PlanChange | null,
  ): Promise<StoredRolloutPlan | null> {
    const now = Date.now();
    return this.engine.exclusive(async (db) => {
      const row = await db
        .selectFrom('remote_rollout_plans')
        .selectAll()
        .where('remote', '=', remote)
        .executeTakeFirst();
      const before = row && toPlan(row);
      const decided = decide(before, await rolloutIn(db, remote));
      if (decided === null) return null;
      const revision = (before?.revision ?? 0) + 1;
      const values = {
        version: decided.plan.version,
        steps: JSON.stringify(decided.plan.steps),
        step: decided.plan.step,
        state: decided.plan.state,
        step_started_at: Date.parse(decided.plan.stepStartedAt),
        started_by: decided.plan.startedBy,
        started_at: Date.parse(decided.plan.startedAt),
        reason: decided.plan.reason,
        revision,
      };
      if (before) {
        // Only from the revision read: the same change decided by two hosts is made once.
        const updated = await db
          .updateTable('remote_rollout_plans')
          .set(values)
          .where('remote', '=', remote)
          .where('revision', '=', before.revision)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) !== 1) return null;
      } else {
        await db
          .insertInto('remote_rollout_plans')
          .values({ remote, ...values })
          .execute();
      }
      if (decided.rollout) await changeRolloutIn(db, { remote, ...decided.rollout }, now);
      if (decided.audit) {
        const { action, actor, before: was, after } = decided.audit;
        await audit(db, remote, action, actor, now, was, after);
      }
      return { ...decided.plan, remote, share: shareOf(decided.plan), revision };
    });
  }
}

async function rolloutIn(db: Kysely<AppSchema>, remote: string): Promise<RemoteRollout> {
  const row = await db.selectFrom('remote_rollouts').selectAll().where('remote', '=', remote).executeTakeFirst();
  if (!row) return { remote, active: null, canary: null };
  return {
    remote,
    active: row.active_version,
    canary:
      row.canary_version === null
        ? null
        : {
            version: row.canary_version,
            percent: Number(row.canary_percent),
            tenants: JSON.parse(row.canary_tenants) as string[],
          },
  };
}

function shareOf(plan: Pick<RolloutPlan, 'steps' | 'step'>): number {
  return plan.steps[plan.step]?.share ?? 0;
}

function toPlan(row: Selectable<RemoteRolloutPlansTable>): StoredRolloutPlan {
  const steps = JSON.parse(row.steps) as RolloutStep[];
  const step = Number(row.step);
  return {
    remote: row.remote,
    version: row.version,
    steps,
    step,
    share: shareOf({ steps, step }),
    state: row.state as RolloutPlanState,
    stepStartedAt: new Date(Number(row.step_started_at)).toISOString(),
    startedBy: row.started_by,
    startedAt: new Date(Number(row.started_at)).toISOString(),
    reason: row.reason,
    revision: Number(row.revision),
  };
}

/** The plan as the wire has it (without its revision). */
export function planOnWire(plan: StoredRolloutPlan): RolloutPlan {
  const { revision: _revision, ...wire } = plan;
  return wire;
}
