/**
 * Calendar days as date fields hold them (`YYYY-MM-DD`, what `<input type="date">` gives) and ranges of them as a
 * date-range filter takes them in the address and the API: `FROM..TO`, both days included, either left out
 * (`2024-01-01..`, `..2024-06-30`). Days compare as text in this form, which is why both engines can filter and
 * sort them without a date type of their own.
 */
export const DAY_RANGE_SEPARATOR = '..';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A range of days; an absent end leaves that side open. */
export interface DayRange {
  from?: string;
  to?: string;
}

/** Why a text is not a day range (see parseDayRange). */
export type DayRangeProblem =
  | { reason: 'shape' }
  | { reason: 'notADay'; day: string }
  | { reason: 'reversed'; from: string; to: string };

/** Whether `text` is `YYYY-MM-DD` naming a day that exists (no 2023-02-29, no month 13), from year 0001. */
export function isCalendarDay(text: string): boolean {
  const match = DAY.exec(text);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < 1 || month < 1 || month > 12 || day < 1) return false;
  return day <= daysInMonth(year, month);
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Reads `FROM..TO`; at least one end, each a calendar day, FROM not after TO. */
export function parseDayRange(text: string): { ok: true; range: DayRange } | ({ ok: false } & DayRangeProblem) {
  const parts = text.split(DAY_RANGE_SEPARATOR);
  if (parts.length !== 2) return { ok: false, reason: 'shape' };
  const [from = '', to = ''] = parts;
  if (from === '' && to === '') return { ok: false, reason: 'shape' };
  for (const day of [from, to]) {
    if (day !== '' && !isCalendarDay(day)) {
      return DAY.test(day) ? { ok: false, reason: 'notADay', day } : { ok: false, reason: 'shape' };
    }
  }
  if (from !== '' && to !== '' && from > to) return { ok: false, reason: 'reversed', from, to };
  return { ok: true, range: { ...(from ? { from } : {}), ...(to ? { to } : {}) } };
}

/** The range as the address and the API take it; '' when both ends are open (no filter). */
export function formatDayRange(range: DayRange): string {
  const from = range.from ?? '';
  const to = range.to ?? '';
  return from === '' && to === '' ? '' : `${from}${DAY_RANGE_SEPARATOR}${to}`;
}

/** The ends of a range as given (for a form showing what the address holds), '' where open or unreadable. */
export function dayRangeEnds(text: string): { from: string; to: string } {
  const [from = '', to = ''] = text.split(DAY_RANGE_SEPARATOR);
  return { from, to };
}
