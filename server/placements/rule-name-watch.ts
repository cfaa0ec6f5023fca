import type { Logger } from 'pino';
import { namesInRule, unknownNamesMessage, type SlotLocation } from '../../shared';
import { repeatedFailureLog } from '../observability/repeated-failure-log';
import type { PlacedSlotInfo } from '../slots/slot-registry';
import { OneReadAtATime } from '../storage/one-read-at-a-time';
import type { KnownRuleNames } from './rule-names-check';

export interface RuleNameWatchParts {
  /** The tenants and flags there are now (readKnownRuleNames). */
  known: () => Promise<KnownRuleNames>;
  /**
   * A marker that moves whenever the tenants or flags changed, here or on another host, and not with other writes
   * (readRuleNamesMarker): a poll that finds it unchanged reads nothing else.
   */
  changeMarker: () => string | Promise<string>;
  placed: () => ReadonlyMap<SlotLocation, readonly PlacedSlotInfo[]>;
  logger: Logger;
  /** How often the tenants and flags are read again, as releases and placements are polled (releasePollMs). */
  pollMs: number;
  /** The database as the operator knows it (StorageEngine.displayName), named by the lines of failed reads. */
  database: string;
}

const KEYS = ['tenants', 'flags'] as const;
const ONE = { tenants: 'tenant', flags: 'flag' } as const;

/**
 * Warns, in the log, of each slot in force whose rule names a tenant or flag that does not exist. Slots of code and
 * of REMOTES_CONFIG are read before the database is open, so their names could not be checked as they were
 * registered; a revision of placements was checked at its publish, but a tenant may be gone since. Not a refusal: a
 * flag may be set, a tenant made, after the start.
 *
 * Checked at the start, after every change of the slots in force, and whenever the tenants or flags there are change:
 * a change marker is read every `pollMs`, and the tenants and flags once it moved, so a `tenant:remove` or
 * `tenant:add` run beside the hosts (or a flag set on another host) is seen by every host within that delay, as a
 * release or a placements revision is, while a quiet poll costs one read of the marker. Each warning is logged
 * once while it holds: a list whose unknown names all exist again is said to name none now (info), and warned of
 * again should they go.
 */
export class RuleNameWatch {
  /** Per list of a rule in force warned of (watchKey): its unknown names then, sorted. */
  private readonly warned = new Map<string, string>();
  /** The tenants and flags of the last check, as JSON: a poll that finds the same checks nothing again. */
  private names: string | null = null;
  /** The change marker read before the last check's lists: a poll that finds it again reads no list. */
  private marker: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private closing = false;
  private readonly reads = new OneReadAtATime();
  private readonly pollFailed: (error: unknown) => void;

  constructor(private readonly parts: RuleNameWatchParts) {
    this.pollFailed = repeatedFailureLog(
      parts.logger,
      'placements: reading the tenants and flags that slot rules name failed; asked again',
      { store: parts.database },
    );
  }

  /** Checks now, then polls the tenants and flags. Holds nothing up: the checks read the database in the background. */
  start(): void {
    this.slotsChanged();
    this.timer ??= setInterval(() => this.track(this.check(false), this.pollFailed), this.parts.pollMs);
    this.timer.unref();
  }

  /** The slots in force changed (a reload, a revision taken): checks them now. */
  slotsChanged(): void {
    this.track(this.check(true), (error) =>
      this.parts.logger.warn({ err: error }, 'The tenants and flags that slot rules name could not be checked'),
    );
  }

  /**
   * Stops the polls at once. A check under way is not waited for (a database slow to answer would hold the stop up
   * for as long): its read ends unobserved, failing or not once the database closes, and it says nothing.
   */
  close(): Promise<void> {
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return Promise.resolve();
  }

  private check(always: boolean): Promise<void> {
    return this.reads.run(async () => {
      // Read before the lists: a change committed between the two moves it past what the next poll compares.
      if (this.closing) return;
      const marker = await this.parts.changeMarker();
      if (this.closing || (!always && marker === this.marker)) return;
      const known = await this.parts.known();
      // Closed while the lists were read: the slots in force may be going too, and a stopped host says nothing.
      if (this.closing) return;
      const names = JSON.stringify([known.tenants, known.flags]);
      this.marker = marker;
      if (!always && names === this.names) return;
      this.names = names;
      this.report(known);
    });
  }

  /** Never holds up the start or a reload: a database that does not answer only delays the warning. */
  private track(check: Promise<void>, failed: (error: unknown) => void): void {
    void check.catch((error: unknown) => {
      // Closed meanwhile: the database it read went away on purpose, which is nothing to warn of.
      if (!this.closing) failed(error);
    });
  }

  private report(known: KnownRuleNames): void {
    const inForce = new Set<string>();
    for (const [location, slots] of this.parts.placed()) {
      for (const { slot, source, remote, id } of slots) {
        const rule = slot.placement.visibleWhen;
        if (rule === undefined) continue;
        const placedBy =
          source === 'code'
            ? 'registered by code'
            : `placed for ${remote ?? 'no remote'} by ${source === 'placements' ? 'the placements editor' : 'REMOTES_CONFIG'}`;
        const where = `Slot "${slot.component}" at ${location.value} (${placedBy})`;
        const fields = { location: location.value, component: slot.component };
        for (const key of KEYS) {
          for (const { path, names } of namesInRule(rule, key)) {
            const watchKey = JSON.stringify([location.value, id, source, remote, path]);
            inForce.add(watchKey);
            const unknown = names.filter((name) => !known[key].includes(name));
            const before = this.warned.get(watchKey);
            if (unknown.length === 0) {
              if (before === undefined) continue;
              this.warned.delete(watchKey);
              const named = JSON.parse(before) as string[];
              // The rule changed (a reload, a revision) rather than the names: nothing to say of them.
              if (!named.every((name) => known[key].includes(name))) continue;
              const exist = `${named.map((name) => JSON.stringify(name)).join(', ')} ${named.length === 1 ? 'exists' : 'exist'}`;
              this.parts.logger.info(fields, `${where}: "${path}" names no unknown ${ONE[key]} now (${exist}).`);
              continue;
            }
            const now = JSON.stringify([...new Set(unknown)].sort());
            if (before === now) continue;
            this.warned.set(watchKey, now);
            this.parts.logger.warn(
              fields,
              `${where}: "${path}" ${unknownNamesMessage(key, unknown, known[key])} ` +
                'Its rule never holds for that name: the slot stays hidden where it should show.',
            );
          }
        }
      }
    }
    // A slot gone from force is warned of again should it come back.
    for (const watchKey of this.warned.keys()) if (!inForce.has(watchKey)) this.warned.delete(watchKey);
  }
}
