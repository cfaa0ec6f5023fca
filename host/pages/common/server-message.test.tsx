import { render } from '@testing-library/react';
import { instantInUtc } from '../../../shared';
import { instantInWords } from '../../../shared/date-time-in-words';
import { readerLocales } from '../../text/reader-locales';
import { messageParts, ServerMessage } from './server-message';

const MOVED = '2026-11-29T08:41:19.689Z';

describe('messageParts', () => {
  it('finds the instants a server writes, to the minute in UTC (instantInUtc) or as an ISO text', () => {
    expect(messageParts(`now v2 (changed by bea at ${instantInUtc(MOVED)}). Nothing was changed.`)).toEqual([
      'now v2 (changed by bea at ',
      { at: '2026-11-29T08:41:00.000Z' },
      '). Nothing was changed.',
    ]);
    expect(messageParts(`published by ann at ${MOVED}`)).toEqual(['published by ann at ', { at: MOVED }]);
    expect(messageParts(`${instantInUtc(MOVED)} and 2026-11-30T10:00Z`)).toEqual([
      { at: '2026-11-29T08:41:00.000Z' },
      ' and ',
      { at: '2026-11-30T10:00:00.000Z' },
    ]);
  });

  it('leaves as words what only looks like an instant: no such day, another zone, a longer number, a version', () => {
    for (const words of [
      'on 2026-02-30 10:00 UTC',
      'at 2026-11-29T09:41:19+01:00',
      'build 12026-11-29 08:41 UTC',
      'version 2026.11.29-build.1742',
      'a day alone: 2026-11-29',
    ]) {
      expect(messageParts(words)).toEqual([words]);
    }
    expect(messageParts('')).toEqual([]);
  });
});

it("shows a message's instants in the reader's zone and form, exactly in a <time>, the rest as it came", () => {
  const { container } = render(<ServerMessage text={`Moved (changed by bea at ${instantInUtc(MOVED)}).`} />);
  expect(container.textContent).toBe(`Moved (changed by bea at ${instantInWords(MOVED, readerLocales())}).`);
  expect(container.textContent).not.toContain('UTC');
  expect(container.querySelector('time')?.dateTime).toBe('2026-11-29T08:41:00.000Z');
});
