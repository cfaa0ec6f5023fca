import { SESSION_RETRY, sessionRetryDelayMs } from './session-retry-delay';

describe('sessionRetryDelayMs', () => {
  const middle = () => 0.5;

  it('doubles with each failure in a row, up to the longest wait', () => {
    expect([1, 2, 3, 4, 5, 6, 7, 20].map((failures) => sessionRetryDelayMs(failures, null, middle))).toEqual([
      2_000, 4_000, 8_000, 16_000, 32_000, 60_000, 60_000, 60_000,
    ]);
  });

  it('spreads each wait by up to a fifth either way, so tabs do not all ask at once', () => {
    expect(sessionRetryDelayMs(1, null, () => 0)).toBe(0.8 * SESSION_RETRY.firstDelayMs);
    expect(sessionRetryDelayMs(1, null, () => 0.999999)).toBeLessThanOrEqual(1.2 * SESSION_RETRY.firstDelayMs);
  });

  it("waits at least as long as the server's Retry-After says", () => {
    expect(sessionRetryDelayMs(1, 30, middle)).toBe(30_000);
    expect(sessionRetryDelayMs(3, 1, middle)).toBe(8_000);
  });
});
