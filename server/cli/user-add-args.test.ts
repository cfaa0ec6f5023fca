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

  it('binds a --role after a --tenant to that membership, and one before every --tenant to the account', () => {
    expect(parseUserAddArgs(['tess', '--tenant', 'acme', '--role', 'operator'])).toEqual({
      username: 'tess',
      tenants: ['acme'],
      tenantRoles: new Map([['acme', 'operator']]),
    });
    expect(
      parseUserAddArgs(['ann', '--role', 'viewer', '--tenant=acme', '--role=operator', '--tenant', 'globex']),
    ).toEqual({
      username: 'ann',
      tenants: ['acme', 'globex'],
      role: 'viewer',
      tenantRoles: new Map([['acme', 'operator']]),
    });
    // `none` on a membership: the account's own role applies there.
    expect(parseUserAddArgs(['ann', '--tenant', 'acme', '--role', 'none'])).toEqual({
      username: 'ann',
      tenants: ['acme'],
    });
  });

  it('reads --permission, repeatable, and --permission none that takes every grant away', () => {
    expect(
      parseUserAddArgs([
        'ann',
        '--permission',
        'releases:manage',
        '--permission=records:write',
        '--permission',
        'releases:manage',
      ]),
    ).toEqual({ username: 'ann', tenants: [], permissions: ['releases:manage', 'records:write'] });
    expect(parseUserAddArgs(['ann', '--permission', 'none'])).toEqual({
      username: 'ann',
      tenants: [],
      permissions: [],
    });
  });

  it('reads --keep-password', () => {
    expect(parseUserAddArgs(['ann', '--keep-password', '--role', 'viewer'])).toEqual({
      username: 'ann',
      tenants: [],
      role: 'viewer',
      keepPassword: true,
    });
  });

  it.each<[string[], RegExp]>([
    [[], /exactly one username/],
    [['a', 'b'], /exactly one username/],
    [['admin', '--tenant'], /--tenant needs a tenant id/],
    [['admin', '--tenant', '--tenant'], /--tenant needs a tenant id/],
    [['admin', '--tenant='], /--tenant needs a tenant id/],
    [['admin', '--role', 'x'], /--role must be viewer, editor, operator or none/],
    [['admin', '--role', 'admin'], /^Unknown role "admin": --role must be viewer, editor, operator or none/],
    [['admin', '--role'], /^--role needs a role: --role must be/],
    [
      ['admin', '--tenant', 'acme', '--role', 'viewer', '--tenant', 'acme'],
      /--tenant "acme" is given twice, with a --role/,
    ],
    [
      ['admin', '--tenant', 'acme', '--tenant', 'acme', '--role', 'none'],
      /--tenant "acme" is given twice, with a --role/,
    ],
    [['admin', '--admin'], /Unknown option --admin/],
    [['admin', '--role', 'viewer', '--role', 'editor'], /--role is given twice for the account/],
    [['admin', '--tenant', 'acme', '--role', 'viewer', '--role', 'editor'], /--role is given twice for tenant "acme"/],
    [['admin', '--permission', 'records:delete'], /Unknown permission "records:delete": records:read, records:write/],
    [['admin', '--permission'], /--permission needs a permission/],
    [
      ['admin', '--permission', 'none', '--permission', 'records:read'],
      /--permission none cannot come with other permissions/,
    ],
    [['-x'], /Unknown option -x/],
    [['bad name'], /not a valid username/],
    [['a'.repeat(65)], /not a valid username/],
  ])('refuses %j with the usage', (argv, message) => {
    expect(() => parseUserAddArgs(argv)).toThrow(UsageError);
    expect(() => parseUserAddArgs(argv)).toThrow(message);
    expect(() => parseUserAddArgs(argv)).toThrow(/usage: npm run user:add -- <username>/);
  });
});
