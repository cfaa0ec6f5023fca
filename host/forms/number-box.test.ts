/**
 * numberFromText: what a number field's text says. A comma is a decimal separator as much as a point; thousands
 * separators and anything else are no number (the server then refuses the text at the field).
 */
import { numberFromText } from './number-box';

it('reads a decimal point or comma, a sign and an exponent, and nothing else', () => {
  const cases: Array<[string, number | null | undefined]> = [
    ['', null],
    ['  ', null],
    ['3', 3],
    ['3,5', 3.5],
    ['3.5', 3.5],
    [' -0,25 ', -0.25],
    ['−2', -2],
    ['+7', 7],
    ['.5', 0.5],
    [',5', 0.5],
    ['3,', 3],
    ['1e3', 1000],
    ['1.234,56', undefined],
    ['1,234.56', undefined],
    ['1 234', undefined],
    ['3,5,1', undefined],
    ['abc', undefined],
    ['-', undefined],
    ['1e999', undefined],
  ];
  expect(cases.map(([text]) => [text, numberFromText(text)])).toEqual(cases);
});
