import { instantInUtc } from './instant-in-utc';

describe('instantInUtc', () => {
  it('says an instant to the minute in UTC, from milliseconds or an ISO text', () => {
    expect(instantInUtc('2026-11-29T08:41:19.689Z')).toBe('2026-11-29 08:41 UTC');
    expect(instantInUtc('2026-11-29T09:41:19.689+01:00')).toBe('2026-11-29 08:41 UTC');
    expect(instantInUtc(Date.UTC(2025, 2, 15, 9, 0))).toBe('2025-03-15 09:00 UTC');
  });

  it('gives back a text that is no instant as it came', () => {
    expect(instantInUtc('never')).toBe('never');
  });
});
