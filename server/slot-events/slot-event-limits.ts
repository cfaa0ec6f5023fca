import type { Request } from 'express';
import { RateLimiterMemory, RateLimiterRes } from '../http/rate-limiter-classes';
import { clientKey } from '../http/client-key';

/** Refused: how long to wait. */
export interface SlotEventsRefusal {
  retryAfterSeconds: number;
}

/**
 * How many events a browser session, and an address (an IPv6 one by its /64), may send per minute. The counters
 * live in this host's memory (no database or Redis round trip per beacon: events must never cost a page anything),
 * so each host applies the limits on its own: behind a balancer spreading one client over N hosts, a client may send
 * up to N times as many. A key is forgotten at the end of its minute, so memory follows the clients of the last
 * minute.
 */
export class SlotEventLimits {
  private readonly perSession: RateLimiterMemory;
  private readonly perAddress: RateLimiterMemory;

  constructor(eventsPerSessionPerMinute: number, eventsPerAddressPerMinute: number) {
    this.perSession = new RateLimiterMemory({
      keyPrefix: 'slot-events-session',
      points: eventsPerSessionPerMinute,
      duration: 60,
    });
    this.perAddress = new RateLimiterMemory({
      keyPrefix: 'slot-events-ip',
      points: eventsPerAddressPerMinute,
      duration: 60,
    });
  }

  /** Takes `events` from the request's address and (signed in) its session; null when allowed. */
  async take(req: Request, events: number): Promise<SlotEventsRefusal | null> {
    try {
      await this.perAddress.consume(clientKey(req.ip ?? req.socket.remoteAddress ?? 'unknown'), events);
      // A signed-out visitor has no stored session: its id would be new on every request.
      if (req.user) await this.perSession.consume(req.sessionID, events);
      return null;
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) throw error;
      return { retryAfterSeconds: Math.max(1, Math.ceil(error.msBeforeNext / 1000)) };
    }
  }
}
