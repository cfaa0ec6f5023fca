import { csvCell, csvLine } from './record-csv';

describe('csvCell', () => {
  it('quotes per RFC 4180 only what needs it, doubling quotes', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(undefined)).toBe('');
    expect(csvCell(null)).toBe('');
    expect(csvCell(12)).toBe('12');
    expect(csvCell(true)).toBe('true');
  });

  it('keeps a spreadsheet from reading a cell as a formula: a leading quote before = + - @', () => {
    expect(['=1+2', '+1', '-1', '@SUM(A1)', '\tx'].map(csvCell)).toEqual(["'=1+2", "'+1", "'-1", "'@SUM(A1)", "'\tx"]);
    expect(csvCell('=A1,B1')).toBe(`"'=A1,B1"`);
    expect(csvCell('a=b')).toBe('a=b');
  });

  it('ends each line with CRLF', () => {
    expect(csvLine(['a', 'b,c', undefined])).toBe('a,"b,c",\r\n');
  });
});
