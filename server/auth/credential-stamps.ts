import { credentialStampOf } from './user-store';

/** An account's stamp, with what it was computed from and the last count that used it. */
interface KnownStamp {
  passwordHash: string;
  sessionsSince: number | null;
  stamp: string;
  count: number;
}

/**
 * The accounts' current credential stamps (user-store.ts's credentialStampOf) as the SQLite session count compares
 * them, kept from one count to the next: with many accounts signed in, a hash of each at every scrape was about half
 * of the count's work. A stamp is computed again as soon as the password hash or `sessions_since` it was computed
 * from differs, so an account is never judged by an old stamp; after each count only the stamps it used are kept, so
 * the memory follows the accounts signed in now.
 */
export class CredentialStamps {
  private readonly known = new Map<number, KnownStamp>();
  private count = 0;

  /** Runs one count (synchronous: SQLite's): the stamps it asks for are kept, the others are forgotten after it. */
  during<T>(work: () => T): T {
    const count = ++this.count;
    try {
      return work();
    } finally {
      for (const [id, known] of this.known) if (known.count !== count) this.known.delete(id);
    }
  }

  stampOf(id: number, passwordHash: string, sessionsSince: number | null): string {
    let known = this.known.get(id);
    if (known === undefined || known.passwordHash !== passwordHash || known.sessionsSince !== sessionsSince) {
      known = { passwordHash, sessionsSince, stamp: credentialStampOf(passwordHash, sessionsSince), count: this.count };
      this.known.set(id, known);
    }
    known.count = this.count;
    return known.stamp;
  }

  /** How many stamps are kept. */
  get size(): number {
    return this.known.size;
  }
}
