import type { Express } from 'express';
import type { AppModule } from '../app-module';
import { SlotRegistry, type SlotRegistrationMap } from './slot-registry';
import { SlotsPayloadCache } from './slots-payload';
import { addSlotsRoute } from './slots-router';

/**
 * Decides on a registration before it is taken: throws to refuse it, nothing of the call being registered. Set by
 * the slot check once the app starts (slot-check/slot-check-module.ts), so that a late registration is checked as
 * the start's were.
 */
export type RegistrationGuard = (candidate: SlotRegistry) => void;

/**
 * The slots placed at the locations (by code, by REMOTES_CONFIG, by the placements in force) and the public
 * `GET /slots` that serves them, with its cached JSON. The public fast path in front of Express reads the same cache
 * (public-fast-path.ts, mounted by app-routes.ts).
 */
export class SlotsModule implements AppModule {
  readonly registry = new SlotRegistry();
  /** The cached JSON of the registered slots (rebuilt once per registration). */
  readonly payload = new SlotsPayloadCache(this.registry);
  private guard: RegistrationGuard | null = null;

  /** Registers code's slots: location value -> one Slot or a list of Slots; calls append, in order. */
  register(map: SlotRegistrationMap): void {
    this.guard?.(this.registry.withRegistered(map));
    this.registry.register(map);
  }

  guardRegistrations(guard: RegistrationGuard): void {
    this.guard = guard;
  }

  mountPublic(app: Express): void {
    addSlotsRoute(app, this.payload);
  }
}
