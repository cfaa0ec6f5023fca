/**
 * The stamps kept between session counts are the accounts' current ones: computed again once the password hash or
 * `sessions_since` changed, forgotten once a count no longer needs them.
 */
import { credentialStampOf } from './user-store';
import { CredentialStamps } from './credential-stamps';

describe('CredentialStamps', () => {
  it("gives user-store.ts's stamp, and a new one once the hash or sessions_since changed", () => {
    const stamps = new CredentialStamps();
    stamps.during(() => {
      expect(stamps.stampOf(1, 'hash-a', null)).toBe(credentialStampOf('hash-a', null));
      expect(stamps.stampOf(1, 'hash-a', null)).toBe(credentialStampOf('hash-a', null));
      expect(stamps.stampOf(1, 'hash-b', null)).toBe(credentialStampOf('hash-b', null));
      expect(stamps.stampOf(1, 'hash-b', 1_700_000_000_000)).toBe(credentialStampOf('hash-b', 1_700_000_000_000));
      expect(stamps.stampOf(1, 'hash-b', null)).toBe(credentialStampOf('hash-b', null));
    });
  });

  it('keeps after a count only the stamps it asked for', () => {
    const stamps = new CredentialStamps();
    stamps.during(() => {
      stamps.stampOf(1, 'hash-a', null);
      stamps.stampOf(2, 'hash-b', null);
    });
    expect(stamps.size).toBe(2);
    stamps.during(() => stamps.stampOf(2, 'hash-b', null));
    expect(stamps.size).toBe(1);
    // Also when the count fails.
    expect(() =>
      stamps.during(() => {
        stamps.stampOf(3, 'hash-c', null);
        throw new Error('the count failed');
      }),
    ).toThrow('the count failed');
    expect(stamps.size).toBe(1);
  });
});
