import { takeEntryArgument } from './entry-argument';

describe('--entry', () => {
  it('takes the file given, leaving the other arguments', () => {
    expect(takeEntryArgument(['team_records', '--entry', 'myapp.ts', 'host'])).toEqual({
      entry: 'myapp.ts',
      rest: ['team_records', 'host'],
    });
    expect(takeEntryArgument(['host'])).toEqual({ entry: undefined, rest: ['host'] });
  });

  it('says what to give when no file follows it', () => {
    for (const args of [['--entry'], ['--entry', '--port']]) {
      expect(() => takeEntryArgument(args)).toThrow('--entry needs a file, e.g. --entry myapp.ts');
    }
  });
});
