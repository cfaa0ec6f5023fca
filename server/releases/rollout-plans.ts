/*
 * Above 300 lines for one reason: a plan's every change (start, step, pause, resume, promote, abort, stop, roll back)
 * is one transaction over the plan, the rollout and its audit entry, read again at the revision this host saw, so the
 * steps share one writer; the judge and the metrics stay outside (slot-events/canary-watch.ts, releases-module.ts).
 */
import type { Logger } from 'pino';
import type {
  AuditAction,
  RemoteRollout,
  RolloutPlan,
  RolloutPlanAction,
  RolloutPlanSeen,
  RolloutSeen,
  RolloutStep,
} from '../../shared';
import type { TraceContext } from '../observability/trace-context';
import { logRequestedReleaseChange } from './release-change-log';
import { AUTO_ROLLBACK_ACTOR, ReleaseRefusedError, refuseMoved, type ReleaseService } from './release-service';
import type { ReleaseSnapshot } from './release-snapshot';
import type { ReleaseStore } from './release-store';
import {
  planOnWire,
  type PlanChange,
  type PlanFields,
  type RolloutPlanStore,
  type StoredRolloutPlan,
} from './rollout-plan-store';
import { planIsAsSeen, planMovedMessage } from './rollout-seen';
import { parseRolloutSteps } from './rollout-steps';
import { repeatedFailureLog } from '../observability/repeated-failure-log';

/** What the slot events say of a canary against its stable release, since a step began. */
export type CanaryHealth = 'worse' | 'no-worse' | 'unknown';

/**
 * A verdict with what it was measured on, for the operators: a rollback that says only "worse" leaves them to dig the
 * figures out of the slot events, and a step held for visitors looks stuck unless the page says how many it has.
 */
export interface CanaryJudgement {
  health: CanaryHealth;
  /** For `worse`: the figures, as the canary watch's own rollback gives them (visitors, shares, z, the slot). */
  reason?: string;
  /** For `unknown` for want of visitors: the canary's distinct visitors since the step began, and how many it needs. */
  visitors?: { visitors: number; needed: number };
}

/**
 * Judges a plan's canary: `worse` rolls it back, `no-worse` lets it advance once its step's time is up, `unknown` (too
 * few distinct visitors since `since`, fewer than `minVisitors`, or nothing to say yet) holds it at its step. The slot
 * events module gives it (it sits above releases/ in the folder order): until it does, plans hold at their step.
 */
export interface RolloutJudge {
  canaryHealth(
    remote: string,
    version: string,
    step: { since: number; minVisitors: number },
  ): CanaryHealth | CanaryJudgement | Promise<CanaryHealth | CanaryJudgement>;
}

/** Who the server's own changes of a plan (a step, a stop) are audited as; a rollback for a worse canary is `auto-rollback`. */
export const ROLLOUT_ACTOR = 'rollout';

export interface RolloutPlansParts {
  plans: RolloutPlanStore;
  /** Who changed a plan last, named when an action chosen on another state of it is refused. */
  audit: Pick<ReleaseStore, 'lastChangeOf'>;
  service: ReleaseService;
  snapshot: ReleaseSnapshot;
  logger: Logger;
  /** The database as the operator knows it (StorageEngine.displayName), named by the lines of failed looks. */
  database: string;
  /** How often every host looks for a step due (the snapshot's poll, by default). */
  checkMs: number;
  now?: () => number;
}

const iso = (at: number) => new Date(at).toISOString();
/** The audit entries of a plan's changes: the last one says who moved it. */
const PLAN_CHANGES: readonly AuditAction[] = [
  'rollout-start',
  'rollout-step',
  'rollout-pause',
  'rollout-resume',
  'rollout-promote',
  'rollout-abort',
  'rollout-rolled-back',
  'rollout-stop',
];
const live = (plan: RolloutPlan | undefined): plan is StoredRolloutPlan =>
  plan?.state === 'running' || plan?.state === 'paused';

/**
 * Whether the rollout is still the plan's: its canary is the plan's release at the step's share, to no tenant (a plan
 * never gives one). Tenants an operator added are their change of the canary, which the plan's next step would drop.
 */
function rolloutIsThePlans(plan: RolloutPlan, rollout: RemoteRollout | undefined): boolean {
  const canary = rollout?.canary;
  return canary?.version === plan.version && canary.percent === plan.share && canary.tenants.length === 0;
}

/** `canary 1.4.0 at 40 % and 1 tenant`: tenants counted, not named, as the audit is read by operators who may not read their ids. */
function canaryInWords(canary: NonNullable<RemoteRollout['canary']>): string {
  const { length } = canary.tenants;
  const tenants = length === 0 ? '' : ` and ${length} ${length === 1 ? 'tenant' : 'tenants'}`;
  return `canary ${canary.version} at ${canary.percent} %${tenants}`;
}

function fieldsOf(plan: StoredRolloutPlan): PlanFields {
  const { remote: _remote, share: _share, revision: _revision, ...fields } = plan;
  return fields;
}

/** One step of one plan: a count of visitors found for it says nothing of the next step, nor of another plan. */
function stepKey(plan: Pick<RolloutPlan, 'version' | 'startedAt' | 'step' | 'stepStartedAt'>): string {
  return `${plan.version} ${plan.startedAt} ${plan.step} ${plan.stepStartedAt}`;
}

function stepLabel(steps: readonly RolloutStep[], step: number): string {
  return `step ${step + 1} of ${steps.length} (${steps[step]!.share} %)`;
}

/**
 * Progressive rollouts: a plan gives a release as a canary to a growing share of the users, step by step, and
 * activates it at its last step (100 %). Every host looks every `checkMs` for a step that is due (its time is up and
 * the judge says the canary is no worse) on the plans of the snapshot; the change is made in the database from the
 * plan's revision, so one host makes it and audits it, and every host serves the new share at its next poll.
 */
export class RolloutPlans {
  private judge: RolloutJudge | null = null;
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;
  private readonly now: () => number;
  /** Remote -> the step (version and start) this host last found waiting for visitors, and the count it found. */
  private readonly waiting = new Map<string, { step: string; visitors: { visitors: number; needed: number } }>();
  private readonly rollBackListeners = new Set<(remote: string, version: string) => void>();
  /** Remote -> the revision of its plan this host last wrote and logs itself (a stop is logged as seen only). */
  private readonly made = new Map<string, number>();

  constructor(private readonly parts: RolloutPlansParts) {
    this.now = parts.now ?? Date.now;
  }

  /** The slot events module's verdict on a canary (set once it is built). */
  judgeWith(judge: RolloutJudge): void {
    this.judge = judge;
  }

  /** Calls `listener` for every plan's canary this host rolled back for being worse (e.g. its metrics). */
  onRollBack(listener: (remote: string, version: string) => void): () => void {
    this.rollBackListeners.add(listener);
    return () => this.rollBackListeners.delete(listener);
  }

  /**
   * How many visitors `plan`'s running step has and needs, when this host's last look found it held for want of them;
   * undefined otherwise. Every host looks every second, so the host answering knows it without asking the judge again.
   */
  waitingForVisitors(plan: RolloutPlan): { visitors: number; needed: number } | undefined {
    const found = this.waiting.get(plan.remote);
    if (plan.state !== 'running' || found?.step !== stepKey(plan)) return undefined;
    return found.visitors;
  }

  start(): void {
    // Every second on every host: a database away for a minute is a line every 30 s, not sixty stacks.
    const failed = repeatedFailureLog(this.parts.logger, 'rollouts: looking for a step due failed; tried again', {
      store: this.parts.database,
    });
    this.timer ??= setInterval(() => void this.check().catch(failed), this.parts.checkMs);
    this.timer.unref();
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /**
   * Whether `plan` is at a revision this host wrote and logs with who made it (a start, an operator's action, a step,
   * an automatic rollback): the seen log (rollout-plan-log.ts) leaves it out, so its maker logs it once.
   */
  madeHere(plan: Pick<StoredRolloutPlan, 'remote' | 'revision'>): boolean {
    return this.made.get(plan.remote) === plan.revision;
  }

  /** `plan` as this host wrote it, noted before the snapshot's refresh shows it to the seen log. */
  private wroteHere(plan: StoredRolloutPlan | null): void {
    if (plan !== null) this.made.set(plan.remote, plan.revision);
  }

  /** The remote's plan as the database holds it (the last started), or undefined. */
  async current(remote: string): Promise<RolloutPlan | undefined> {
    const plan = await this.parts.plans.plan(remote);
    return plan && planOnWire(plan);
  }

  /**
   * Starts a plan: its first step's share is given the release as a canary at once (audited `rollout-start`). Given
   * the rollout the caller `seen`, a rollout moved since (another canary started, say) is refused (409), nothing
   * changed: the plan's canary replaces the one running, which the operator must have been shown.
   */
  async startPlan(
    remote: string,
    body: Record<string, unknown>,
    actor: string,
    trace?: TraceContext,
    seen?: RolloutSeen,
  ): Promise<RolloutPlan> {
    const steps = parseRolloutSteps(body.steps);
    if (typeof steps === 'string') throw new ReleaseRefusedError(steps);
    const { release, reason } = await this.parts.service.rolloutCandidate(remote, body.version, trace, seen);
    const at = this.now();
    const plan = await this.parts.service.namingWhoMovedIt(remote, seen, () =>
      this.parts.plans.change(remote, (before, rollout) => {
        // Again against the database: another host may have moved the rollout since the candidate was checked.
        refuseMoved(remote, seen, rollout);
        if (live(before)) {
          throw new ReleaseRefusedError(
            `Remote "${remote}" has a rollout plan of "${before.version}" ${before.state} at ${stepLabel(before.steps, before.step)}: promote or abort it first.`,
          );
        }
        // The database's active release: another host may have activated one since the candidate was checked.
        this.parts.service.refuseCanaryOf(release, rollout.active);
        const plan: PlanFields = {
          version: release.version,
          steps,
          step: 0,
          state: 'running',
          stepStartedAt: iso(at),
          startedBy: actor,
          startedAt: iso(at),
          reason: null,
        };
        const label = `plan of ${steps.map((step) => `${step.share} %`).join(', ')}: ${stepLabel(steps, 0)}`;
        return {
          plan,
          rollout: {
            action: 'rollout-start',
            actor,
            next: {
              active: rollout.active,
              canary: { version: release.version, percent: steps[0]!.share, tenants: [] },
            },
            reason: reason === undefined ? label : `${label}; ${reason}`,
          },
        };
      }),
    );
    this.wroteHere(plan);
    await this.parts.snapshot.refresh();
    const detail = `plan of ${steps.map((step) => `${step.share} %`).join(', ')}${reason === undefined ? '' : `; ${reason}`}`;
    logRequestedReleaseChange(
      this.parts.logger,
      { actor, remote, action: 'rollout-start', version: release.version },
      detail,
    );
    return planOnWire(plan!);
  }

  /**
   * An operator's (or a team's, where allowed) change of the running plan: pause (held at its step), resume (its
   * step's time starts again), promote (the release activated now), abort (everyone back on the stable release). A
   * pause of a paused plan, or a resume of a running one, changes and records nothing. Given the plan the caller
   * `seen`, an action on another plan or another state of it is refused (409), nothing changed.
   */
  async act(
    remote: string,
    action: RolloutPlanAction,
    actor: string,
    seen?: RolloutPlanSeen,
    trace?: TraceContext,
  ): Promise<RolloutPlan> {
    const known = await this.parts.plans.plan(remote);
    if (known === undefined) throw new ReleaseRefusedError(`Remote "${remote}" has no rollout plan.`, [], 404);
    if (seen !== undefined && !planIsAsSeen(known, seen)) {
      const lastChange = await this.parts.audit.lastChangeOf(remote, PLAN_CHANGES);
      throw new ReleaseRefusedError(planMovedMessage(remote, seen, known, lastChange), [], 409);
    }
    // Promoting activates the release: checked against the placements and other remotes as they are now, and its files
    // asked again as an activation asks them (the canary's few loaded it; everyone else would next).
    const filesReason =
      action === 'promote' && live(known)
        ? await this.parts.service.promotionFilesReason(remote, known.version, trace)
        : undefined;
    const at = this.now();
    const changed = await this.namingWhoMovedThePlan(remote, seen, () =>
      this.parts.plans.change(remote, (plan) => {
        // Read again in the transaction: another host may have moved it since (who, read once it is committed).
        if (plan !== undefined && seen !== undefined && !planIsAsSeen(plan, seen)) {
          throw new ReleaseRefusedError(planMovedMessage(remote, seen, plan, undefined), [], 409);
        }
        if (!live(plan)) {
          const ended = plan as StoredRolloutPlan | undefined;
          throw new ReleaseRefusedError(
            `The rollout plan of "${ended?.version ?? ''}" of "${remote}" is ${ended?.state ?? 'gone'}: nothing to ${action}.`,
          );
        }
        return this.actionChange(plan, action, actor, at, filesReason);
      }),
    );
    this.wroteHere(changed);
    await this.parts.snapshot.refresh();
    // Null: a pause of a paused plan or a resume of a running one, which changed nothing and is not logged either.
    if (changed !== null) {
      const { version } = changed;
      logRequestedReleaseChange(
        this.parts.logger,
        { actor, remote, action: `rollout-${action}`, version },
        filesReason,
      );
    }
    return planOnWire(changed ?? (await this.parts.plans.plan(remote))!);
  }

  /**
   * Runs `change`; a refusal in its transaction for a plan moved since `seen` (by a change committed meanwhile, which
   * the transaction cannot read the audit of) is said again naming who moved it, as the check before it says.
   */
  private async namingWhoMovedThePlan<T>(
    remote: string,
    seen: RolloutPlanSeen | undefined,
    change: () => Promise<T>,
  ): Promise<T> {
    try {
      return await change();
    } catch (error) {
      if (!(error instanceof ReleaseRefusedError) || error.status !== 409 || seen === undefined) throw error;
      const now = await this.parts.plans.plan(remote);
      if (now === undefined || planIsAsSeen(now, seen)) throw error;
      const lastChange = await this.parts.audit.lastChangeOf(remote, PLAN_CHANGES);
      throw new ReleaseRefusedError(planMovedMessage(remote, seen, now, lastChange), [], 409);
    }
  }

  /** `filesReason`: a promotion's, when its files were left unconfirmed (release-files-refusal.ts). */
  private actionChange(
    plan: StoredRolloutPlan,
    action: RolloutPlanAction,
    actor: string,
    at: number,
    filesReason?: string,
  ): PlanChange | null {
    const fields = fieldsOf(plan);
    const where = { state: plan.state, step: plan.step + 1, share: plan.share };
    switch (action) {
      case 'pause':
        if (plan.state === 'paused') return null;
        return {
          plan: { ...fields, state: 'paused' },
          audit: { action: 'rollout-pause', actor, before: where, after: { ...where, state: 'paused' } },
        };
      case 'resume':
        if (plan.state === 'running') return null;
        return {
          plan: { ...fields, state: 'running', stepStartedAt: iso(at) },
          audit: { action: 'rollout-resume', actor, before: where, after: { ...where, state: 'running' } },
        };
      case 'promote':
        return {
          plan: { ...fields, state: 'promoted' },
          rollout: {
            action: 'rollout-promote',
            actor,
            next: { active: plan.version, canary: null },
            reason: `promoted at ${stepLabel(plan.steps, plan.step)}${filesReason === undefined ? '' : `; ${filesReason}`}`,
          },
        };
      case 'abort':
        return {
          plan: { ...fields, state: 'aborted' },
          rollout: {
            action: 'rollout-abort',
            actor,
            // The plan's canary ends; another one started by other means meanwhile is not this plan's to end.
            next: (rollout) => ({
              active: rollout.active,
              canary: rollout.canary?.version === plan.version ? null : rollout.canary,
            }),
            reason: `aborted at ${stepLabel(plan.steps, plan.step)}`,
          },
        };
    }
  }

  /** Looks once for what is due on every live plan (one look at a time); `at`: the time it is (tests give theirs). */
  check(at?: number): Promise<void> {
    this.checking ??= this.look(at ?? this.now()).finally(() => {
      this.checking = null;
    });
    return this.checking;
  }

  private async look(at: number): Promise<void> {
    for (const plan of this.parts.snapshot.rolloutPlans()) {
      if (!live(plan)) continue;
      // One plan's trouble (its judge throwing, a write failing) holds that plan alone, until the next look.
      await this.lookAt(plan, at).catch((error: unknown) =>
        this.parts.logger.warn(
          { err: error, remote: plan.remote, version: plan.version },
          'rollouts: a plan could not be looked at; tried again',
        ),
      );
    }
  }

  private async lookAt(plan: StoredRolloutPlan, at: number): Promise<void> {
    if (!rolloutIsThePlans(plan, this.parts.snapshot.rollout(plan.remote))) {
      await this.stop(plan);
      return;
    }
    if (plan.state !== 'running') return;
    const step = plan.steps[plan.step]!;
    const since = Date.parse(plan.stepStartedAt);
    // Asked outside the transaction (the judge reads the slot events); the step is then made from this revision only.
    const answer =
      this.judge === null
        ? 'unknown'
        : await this.judge.canaryHealth(plan.remote, plan.version, { since, minVisitors: step.visitors ?? 0 });
    const judgement: CanaryJudgement = typeof answer === 'string' ? { health: answer } : answer;
    const short = judgement.visitors !== undefined && judgement.visitors.visitors < judgement.visitors.needed;
    if (short) this.waiting.set(plan.remote, { step: stepKey(plan), visitors: judgement.visitors! });
    else this.waiting.delete(plan.remote);
    if (judgement.health === 'worse') await this.rollBack(plan, judgement.reason);
    else if (judgement.health === 'no-worse' && at - since >= step.minutes * 60_000) await this.advance(plan, at);
  }

  /** Only from the revision this host saw, and while the rollout is still the plan's: made once. */
  private change(plan: StoredRolloutPlan, decide: () => PlanChange): Promise<StoredRolloutPlan | null> {
    return this.parts.plans.change(plan.remote, (now, rollout) =>
      now?.revision === plan.revision && rolloutIsThePlans(plan, rollout) ? decide() : null,
    );
  }

  private async advance(plan: StoredRolloutPlan, at: number): Promise<void> {
    const next = plan.step + 1;
    const last = next === plan.steps.length - 1;
    const share = plan.steps[next]!.share;
    const label = stepLabel(plan.steps, next);
    const changed = await this.change(plan, () => ({
      plan: { ...fieldsOf(plan), step: next, stepStartedAt: iso(at), state: last ? 'done' : 'running' },
      rollout: {
        action: 'rollout-step',
        actor: ROLLOUT_ACTOR,
        next: (rollout) =>
          last
            ? { active: plan.version, canary: null }
            : { active: rollout.active, canary: { version: plan.version, percent: share, tenants: [] } },
        reason: last ? `${label}: the release activated` : label,
      },
    }));
    if (changed === null) return;
    this.wroteHere(changed);
    await this.parts.snapshot.refresh();
    this.parts.logger.info(
      {
        actor: ROLLOUT_ACTOR,
        remote: plan.remote,
        action: 'rollout-step',
        version: plan.version,
        step: next + 1,
        share,
      },
      `rollout of "${plan.remote}" ${plan.version}: ${last ? `${label}, activated` : label}`,
    );
  }

  /** `measured`: the judge's figures (visitors, shares, z, the slot), the same a canary watch's rollback gives. */
  private async rollBack(plan: StoredRolloutPlan, measured: string | undefined): Promise<void> {
    const where = `the canary was worse than its stable release at ${stepLabel(plan.steps, plan.step)}`;
    const reason = measured ? `${where}: ${measured}` : where;
    const changed = await this.change(plan, () => ({
      plan: { ...fieldsOf(plan), state: 'rolled-back', reason },
      rollout: {
        action: 'rollout-rolled-back',
        actor: AUTO_ROLLBACK_ACTOR,
        next: (rollout) => ({ active: rollout.active, canary: null }),
        reason,
      },
    }));
    if (changed === null) return;
    this.wroteHere(changed);
    await this.parts.snapshot.refresh();
    for (const listener of this.rollBackListeners) listener(plan.remote, plan.version);
    this.parts.logger.error(
      {
        actor: AUTO_ROLLBACK_ACTOR,
        remote: plan.remote,
        action: 'rollout-rolled-back',
        version: plan.version,
        step: plan.step + 1,
        reason,
      },
      `ROLLOUT ROLLED BACK AUTOMATICALLY: remote "${plan.remote}" ${plan.version}: ${reason}`,
    );
  }

  /** The rollout was changed by other means (an activation, the canary ended or changed): the plan stops there. */
  private async stop(plan: StoredRolloutPlan): Promise<void> {
    const changed = await this.parts.plans.change(plan.remote, (now, rollout) => {
      if (now?.revision !== plan.revision || rolloutIsThePlans(plan, rollout)) return null;
      const canary = rollout.canary ? canaryInWords(rollout.canary) : 'no canary';
      const reason = `the rollout was changed by other means at ${stepLabel(plan.steps, plan.step)}: now active ${rollout.active ?? 'none'}, ${canary}`;
      const where = { state: plan.state, step: plan.step + 1, share: plan.share };
      return {
        plan: { ...fieldsOf(plan), state: 'stopped', reason },
        audit: {
          action: 'rollout-stop',
          actor: ROLLOUT_ACTOR,
          before: where,
          after: { ...where, state: 'stopped', reason },
        },
      };
    });
    if (changed !== null) await this.parts.snapshot.refresh();
  }
}
