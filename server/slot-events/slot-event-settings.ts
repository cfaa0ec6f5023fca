import { InvalidSettingError, readBoolean, readInteger } from '../config/env-values';

/** How slot events are taken in, aggregated and acted on (AppOptions.slotEvents); every field has a default. */
export interface SlotEventSettings {
  /** Events one browser session may send per minute (over: 429); default 600. */
  eventsPerSessionPerMinute: number;
  /** Events one address may send per minute, sessions or not (over: 429); default 3000 (offices behind one NAT). */
  eventsPerAddressPerMinute: number;
  /** How often each host writes what it counted into the database (ms); default 1000. */
  flushMs: number;
  /** Most aggregate rows a host holds between two writes; events of keys beyond it are dropped (and counted). */
  maxPendingRows: number;
  /** The automatic rollback of a failing canary (canary-watch.ts). */
  canary: CanaryRollbackSettings;
}

export interface CanaryRollbackSettings {
  /** Off: canaries are only measured, never rolled back by the server. Default on. */
  enabled: boolean;
  /** How often each host compares each running canary with its stable release (ms); default 10 000. */
  checkMs: number;
  /** The window compared (its loads, not the canary's whole life): default the last 5 minutes. */
  windowMs: number;
  /** Loads of the canary (not hidden) in the window before it is judged at all; default 50. */
  minLoads: number;
  /**
   * Distinct signed-in visitors of the canary in the window before it is judged at all; default 10. Whatever it says,
   * one member alone never ends a canary: 1 failing visitor of 1 is not significant at 99 % (canary-verdict.ts).
   */
  minVisitors: number;
  /**
   * How much higher the canary's share of failing visitors may be than the stable release's (0.05 = 5 points) before
   * the one-sided test at 99 % is asked whether it is; default 0.05.
   */
  margin: number;
}

export const DEFAULT_SLOT_EVENT_SETTINGS: SlotEventSettings = Object.freeze({
  eventsPerSessionPerMinute: 600,
  eventsPerAddressPerMinute: 3000,
  flushMs: 1000,
  maxPendingRows: 10_000,
  canary: Object.freeze({
    enabled: true,
    checkMs: 10_000,
    windowMs: 5 * 60_000,
    minLoads: 50,
    minVisitors: 10,
    margin: 0.05,
  }),
});

/** What AppOptions.slotEvents may set: any field, the others keep their defaults. */
export type SlotEventOptions = Partial<Omit<SlotEventSettings, 'canary'>> & {
  canary?: Partial<CanaryRollbackSettings>;
};

/** Options over the defaults, checked: a bad value throws, naming it. */
export function slotEventSettingsOf(options: SlotEventOptions = {}): SlotEventSettings {
  const settings: SlotEventSettings = {
    ...DEFAULT_SLOT_EVENT_SETTINGS,
    ...options,
    canary: { ...DEFAULT_SLOT_EVENT_SETTINGS.canary, ...options.canary },
  };
  const counts = {
    eventsPerSessionPerMinute: settings.eventsPerSessionPerMinute,
    eventsPerAddressPerMinute: settings.eventsPerAddressPerMinute,
    flushMs: settings.flushMs,
    maxPendingRows: settings.maxPendingRows,
    'canary.checkMs': settings.canary.checkMs,
    'canary.windowMs': settings.canary.windowMs,
    'canary.minLoads': settings.canary.minLoads,
    'canary.minVisitors': settings.canary.minVisitors,
  };
  for (const [name, value] of Object.entries(counts)) {
    if (!Number.isInteger(value) || value <= 0) throw new Error(`slotEvents.${name} must be a positive whole number.`);
  }
  const { margin } = settings.canary;
  if (!Number.isFinite(margin) || margin < 0 || margin >= 1) {
    throw new Error('slotEvents.canary.margin must be a fraction from 0 to below 1 (0.05 = 5 points).');
  }
  return settings;
}

/**
 * The settings operators give in the environment: SLOT_EVENTS_PER_SESSION_PER_MINUTE,
 * SLOT_EVENTS_PER_ADDRESS_PER_MINUTE, CANARY_AUTO_ROLLBACK (`off` switches it off; a value neither true nor false stops
 * the start), CANARY_ROLLBACK_MIN_LOADS, CANARY_ROLLBACK_MIN_VISITORS, CANARY_ROLLBACK_MARGIN_POINTS (whole percentage
 * points) and CANARY_ROLLBACK_WINDOW_MINUTES (1 to 60: the minute rows are kept an hour).
 */
export function slotEventSettingsFromEnv(env: NodeJS.ProcessEnv): SlotEventSettings {
  const defaults = DEFAULT_SLOT_EVENT_SETTINGS;
  const windowMinutes = readInteger(env, 'CANARY_ROLLBACK_WINDOW_MINUTES', defaults.canary.windowMs / 60_000, 1);
  if (windowMinutes > 60) {
    throw new InvalidSettingError('CANARY_ROLLBACK_WINDOW_MINUTES', String(windowMinutes), 'from 1 to 60 minutes');
  }
  const marginPoints = readInteger(env, 'CANARY_ROLLBACK_MARGIN_POINTS', defaults.canary.margin * 100, 0);
  if (marginPoints >= 100) {
    throw new InvalidSettingError('CANARY_ROLLBACK_MARGIN_POINTS', String(marginPoints), 'from 0 to 99 points');
  }
  return slotEventSettingsOf({
    eventsPerSessionPerMinute: readInteger(
      env,
      'SLOT_EVENTS_PER_SESSION_PER_MINUTE',
      defaults.eventsPerSessionPerMinute,
      1,
    ),
    eventsPerAddressPerMinute: readInteger(
      env,
      'SLOT_EVENTS_PER_ADDRESS_PER_MINUTE',
      defaults.eventsPerAddressPerMinute,
      1,
    ),
    canary: {
      enabled: readBoolean(env, 'CANARY_AUTO_ROLLBACK', true),
      minLoads: readInteger(env, 'CANARY_ROLLBACK_MIN_LOADS', defaults.canary.minLoads, 1),
      minVisitors: readInteger(env, 'CANARY_ROLLBACK_MIN_VISITORS', defaults.canary.minVisitors, 1),
      margin: marginPoints / 100,
      windowMs: windowMinutes * 60_000,
    },
  });
}
