import type { Logger } from 'pino';
import type { DescriptorFailure, DescriptorOutcome } from './descriptor-source';

/** What the last request to a remote's origin came to, for the entry it was made for. */
export interface OriginCheck {
  /** The entry (manifest URL) whose descriptor was asked: a check of another entry says nothing of this one. */
  entry: string;
  status: 'answered' | DescriptorFailure;
  /** Why it failed, as logged; absent when it answered. */
  reason?: string;
}

/**
 * The last answer of each remote's origin, whoever asked (the registry learning a descriptor, its periodic check of
 * the remotes it serves, the import of REMOTES_CONFIG's entries as releases): what `/metrics` and the inspector say of
 * a remote served from another origin. A remote already served (its descriptor known, or from its release) stays
 * served when its origin stops answering — pages meet the failure, each slot alone, and load it again once it is
 * back — so the change is logged here, once each way: it is what an operator is alerted on.
 */
export class OriginChecks {
  private readonly last = new Map<string, OriginCheck>();

  constructor(
    private readonly logger: Logger,
    /** How often served remotes are checked, for the log's words. */
    private readonly intervalMs: number,
  ) {}

  /**
   * Keeps what asking `entry`'s descriptor for `name` came to. `served`: whether pages are given that remote whatever
   * the answer (logged here when it stops or starts answering); a remote not served yet is the registry's to log.
   * `traceId`: the trace the request went with (its `traceparent`), logged so the origin's logs can be matched.
   */
  record(name: string, entry: string, outcome: DescriptorOutcome, served: boolean, traceId?: string): void {
    const check: OriginCheck =
      outcome.status === 'ready'
        ? { entry, status: 'answered' }
        : { entry, status: outcome.failure, reason: outcome.reason };
    const before = this.last.get(name);
    this.last.set(name, check);
    if (!served) return;
    const wasAnswering = before?.entry === entry ? before.status === 'answered' : true;
    if (wasAnswering && check.status !== 'answered') {
      this.logger.warn(
        { remote: name, entry, failure: check.status, ...(traceId ? { trace_id: traceId } : {}) },
        `Remote "${name}" stopped answering at its origin (${check.reason}): pages cannot load its components ` +
          `until it answers again; its slots stay placed (checked every ${Math.round(this.intervalMs / 1000)} s).`,
      );
    } else if (before?.entry === entry && before.status !== 'answered' && check.status === 'answered') {
      this.logger.info(
        { remote: name, entry, ...(traceId ? { trace_id: traceId } : {}) },
        `Remote "${name}" answers at its origin again.`,
      );
    }
  }

  /** The last check of `name`'s origin for `entry` (the entry served now), or undefined when none was made. */
  of(name: string, entry: string): OriginCheck | undefined {
    const check = this.last.get(name);
    return check?.entry === entry ? check : undefined;
  }
}
