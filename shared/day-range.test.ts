import { dayRangeEnds, formatDayRange, isCalendarDay, parseDayRange } from './day-range';

describe('isCalendarDay', () => {
  it.each(['2024-02-29', '2000-02-29', '0001-01-01', '9999-12-31', '2023-04-30'])('takes %s', (day) => {
    expect(isCalendarDay(day)).toBe(true);
  });

  it.each([
    '2023-02-29',
    '1900-02-29',
    '2023-04-31',
    '2023-13-01',
    '2023-00-10',
    '0000-01-01',
    '2023-1-5',
    '20230105',
    ' 2023-01-05',
    '2023-01-05T00:00',
  ])('refuses %s', (day) => {
    expect(isCalendarDay(day)).toBe(false);
  });
});

describe('parseDayRange', () => {
  it('reads both ends, or either alone, both included', () => {
    expect(parseDayRange('2024-01-01..2024-12-31')).toEqual({
      ok: true,
      range: { from: '2024-01-01', to: '2024-12-31' },
    });
    expect(parseDayRange('2024-01-01..')).toEqual({ ok: true, range: { from: '2024-01-01' } });
    expect(parseDayRange('..2024-12-31')).toEqual({ ok: true, range: { to: '2024-12-31' } });
    expect(parseDayRange('2024-05-05..2024-05-05')).toEqual({
      ok: true,
      range: { from: '2024-05-05', to: '2024-05-05' },
    });
  });

  it('names what is wrong', () => {
    for (const text of [
      '',
      '..',
      '2024-01-01',
      '2024-01-01...2024-02-01',
      '2024-1-1..',
      'yesterday..',
      '..2024-01-01..',
    ]) {
      expect([text, parseDayRange(text)]).toEqual([text, { ok: false, reason: 'shape' }]);
    }
    expect(parseDayRange('2024-02-30..')).toEqual({ ok: false, reason: 'notADay', day: '2024-02-30' });
    expect(parseDayRange('2025-01-01..2024-01-01')).toEqual({
      ok: false,
      reason: 'reversed',
      from: '2025-01-01',
      to: '2024-01-01',
    });
  });

  it('round-trips with formatDayRange and dayRangeEnds', () => {
    expect(formatDayRange({ from: '2024-01-01', to: '2024-12-31' })).toBe('2024-01-01..2024-12-31');
    expect(formatDayRange({ from: '', to: '2024-12-31' })).toBe('..2024-12-31');
    expect(formatDayRange({ from: '', to: '' })).toBe('');
    expect(formatDayRange({})).toBe('');
    expect(dayRangeEnds('2024-01-01..')).toEqual({ from: '2024-01-01', to: '' });
    expect(dayRangeEnds('')).toEqual({ from: '', to: '' });
  });
});
