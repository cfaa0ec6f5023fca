import { parseUserAddArgs, UsageError } from './user-add-args';

describe('parseUserAddArgs', () => {
  it('reads the username and the tenants in either flag form, without repeats', () => {
    expect(parseUserAddArgs(['admin'])).toEqual({ username: 'admin', tenants: [] });
    expect(parseUserAddArgs(['--tenant', 'acme', 'ed.itor@x', '--tenant=globex', '--tenant', 'acme'])).toEqual({
      username: 'ed.itor@x',
      tenants: ['acme', 'globex'],
    });
  });

  it('reads --role operator, and --role none that takes the role away', () => {
    expect(parseUserAddArgs(['ops', '--role', 'operator'])).toEqual({ username: 'ops', tenants: [], role: 'operator' });
    expect(parseUserAddArgs(['ops', '--role=none'])).toEqual({ username: 'ops', tenants: [], role: null });
    expect(parseUserAddArgs(['eve', '--role', 'viewer'])).toEqual({ username: 'eve', tenants: [], role: 'viewer' });
    expect(parseUserAddArgs(['ed', '--role=editor'])).toEqual({ username: 'ed', tenants: [], role: 'editor' });
  });

  it.each<[string[], RegExp]>([
    [[], /exactly one username/],
    [['a', 'b'], /exactly one username/],
    [['admin', '--tenant'], /--tenant needs a tenant id/],
    [['admin', '--tenant', '--tenant'], /--tenant needs a tenant id/],
    [['admin', '--tenant='], /--tenant needs a tenant id/],
    [['admin', '--role', 'x'], /--role must be viewer, editor, operator or none/],
    [['admin', '--admin'], /Unknown option --admin/],
    [['-x'], /Unknown option -x/],
    [['bad name'], /not a valid username/],
    [['a'.repeat(65)], /not a valid username/],
  ])('refuses %j with the usage', (argv, message) => {
    expect(() => parseUserAddArgs(argv)).toThrow(UsageError);
    expect(() => parseUserAddArgs(argv)).toThrow(message);
    expect(() => parseUserAddArgs(argv)).toThrow(/Usage: npm run user:add -- <username>/);
  });
});
