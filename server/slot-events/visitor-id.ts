import { createHmac } from 'node:crypto';
import type { Request } from 'express';
import { clientKey } from '../http/client-key';
import type { SlotAudience } from './slot-visitor-store';

/** Who sent a request's events, as the verdict counts them: once, however many events it sends. */
export interface SlotVisitor {
  audience: SlotAudience;
  /** 16 hex characters of an HMAC: the same on every host (same secret), never the account or address itself. */
  id: string;
}

/**
 * A request's visitor: its **account** when signed in (not its session: signing in again, or in two browsers, is still
 * one visitor), else its client address (an IPv6 one by its /64, as the limits key it), so one address weighs as one
 * visitor however many events or cookies it makes up. Hashed with the session secret so the table holds no account
 * id or address (a rotation of the secret starts new ids: a visitor may count twice for one window).
 */
export function visitorIdFactory(secret: string): (req: Request) => SlotVisitor {
  const key = createHmac('sha256', secret).update('slot-event-visitors').digest();
  const hash = (value: string) => createHmac('sha256', key).update(value).digest('hex').slice(0, 16);
  return (req) => {
    if (req.user) return { audience: 'staff', id: hash(`account:${req.user.id}`) };
    return { audience: 'anonymous', id: hash(`address:${clientKey(req.ip ?? req.socket.remoteAddress ?? 'unknown')}`) };
  };
}
