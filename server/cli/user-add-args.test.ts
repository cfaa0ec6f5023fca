import { parseUserAddArgs, UsageError } from './user-add-args';

describe('parseUserAddArgs', () => {
  it('reads the username and the tenants in either flag form, without repeats', () => {
    expect(parseUserAddArgs(['admin'])).toEqual({ username: 'admin', tenants: [] });
    expect(parseUserAddArgs(['--tenant', 'acme', 'ed.itor@x', '--tenant=globex', '--tenant', 'acme'])).toEqual({
      username: 'ed.itor@x',
      tenants: ['acme', 'globex'],
    });
  });

  it.each<[string[], RegExp]>([
    [[], /exactly one username/],
    [['a', 'b'], /exactly one username/],
    [['admin', '--tenant'], /--tenant needs a tenant id/],
    [['admin', '--tenant', '--tenant'], /--tenant needs a tenant id/],
    [['admin', '--tenant='], /--tenant needs a tenant id/],
    [['admin', '--role', 'x'], /Unknown option --role/],
    [['-x'], /Unknown option -x/],
    [['bad name'], /not a valid username/],
    [['a'.repeat(65)], /not a valid username/],
  ])('refuses %j with the usage', (argv, message) => {
    expect(() => parseUserAddArgs(argv)).toThrow(UsageError);
    expect(() => parseUserAddArgs(argv)).toThrow(message);
    expect(() => parseUserAddArgs(argv)).toThrow(/Usage: npm run user:add -- <username>/);
  });
});
