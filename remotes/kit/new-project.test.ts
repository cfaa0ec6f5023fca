import path from 'node:path';
import { parseNewProjectArguments, remoteNameLike } from './new-project';

const CWD = path.resolve('/work/projects');
const USAGE = 'usage: slots-remote new <name> [--dir <path>]';
const parse = (...args: string[]) => parseNewProjectArguments(args, CWD, (name) => path.join(CWD, name), USAGE);

describe('parseNewProjectArguments', () => {
  it('takes a name and a folder', () => {
    expect(parse('team_billing')).toEqual({ name: 'team_billing', dir: path.join(CWD, 'team_billing') });
    expect(parse('team_billing', '--dir', 'billing-remote')).toEqual({
      name: 'team_billing',
      dir: path.join(CWD, 'billing-remote'),
    });
  });

  it('says what a name of two words unquoted takes, and where a folder goes, not the usage alone', () => {
    expect(() => parse('Team', 'Billing')).toThrow(
      'The command takes one name, and "Team Billing" is two words. A name of two words joins them with _ ' +
        '(team_billing: a name has no spaces); a folder for the project is given with --dir (Team --dir Billing). ' +
        USAGE,
    );
    expect(() => parse('team_billing', 'billing-remote')).toThrow('(team_billing --dir billing-remote)');
  });

  it('says what a name is made of, with one made of the words given', () => {
    expect(() => parse('Team Billing')).toThrow(
      '"Team Billing" is not a remote name: a name is one word of letters, digits and _, starting with a letter or ' +
        `_, 64 characters at most (no spaces, no -), e.g. team_billing. ${USAGE}`,
    );
    expect(() => parse('team-billing')).toThrow('e.g. team_billing.');
    expect(() => parse('my', 'billing', 'team')).toThrow('"my billing team" is not a remote name');
    expect(() => parse()).toThrow(USAGE);
  });
});

describe('remoteNameLike', () => {
  it('makes a name the command takes', () => {
    expect(remoteNameLike('Team Billing')).toBe('team_billing');
    expect(remoteNameLike('team-billing')).toBe('team_billing');
    expect(remoteNameLike('2fa')).toBe('team_2fa');
    expect(remoteNameLike('--')).toBe('team_billing');
    expect(remoteNameLike('x'.repeat(80))).toHaveLength(64);
  });
});
