import { ownLoopbackOrigins, reachedFromThisMachineOnly, ReleaseAddressGuard } from './release-address-guard';

describe('reachedFromThisMachineOnly', () => {
  it.each([
    [true, {}, undefined, true],
    [false, {}, undefined, true],
    [false, { HOST: '127.0.0.1' }, 'http://127.0.0.1:3000', true],
    [false, { HOST: 'localhost' }, 'http://localhost:3000', true],
    [false, { HOST: '::1' }, undefined, true],
    [false, { HOST: '0.0.0.0' }, undefined, false],
    [false, { HOST: '10.0.0.4' }, undefined, false],
    [false, { HOST: '127.0.0.1' }, 'https://admin.example.com', false],
    // 127.0.0.1 carried in another form is no loopback of this machine's.
    [false, { HOST: '64:ff9b::7f00:1' }, undefined, false],
    [false, { HOST: '::127.0.0.1' }, undefined, false],
  ])('development %s, %j, PUBLIC_URL %s: %s', (development, env, publicOrigin, expected) => {
    expect(reachedFromThisMachineOnly(development, env, publicOrigin)).toBe(expected);
  });
});

describe('a release on this server itself', () => {
  const guard = (env: NodeJS.ProcessEnv) =>
    new ReleaseAddressGuard({
      config: () => ({ releaseOrigins: undefined, remotes: [], pending: [] }),
      loopbackAllowed: false,
      ownOrigins: ownLoopbackOrigins(env),
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
  const refused = (env: NodeJS.ProcessEnv, entry: string) =>
    guard(env)
      .refusal('team_marketing', new URL(entry))
      .then((why) => why !== null);

  it.each([
    [{ HOST: '0.0.0.0', PORT: '3000' }, 'http://127.0.0.1:3000/remotes/team_marketing/mf-manifest.json', false],
    [{ HOST: '::' }, 'http://localhost:3000/remotes/team_marketing/mf-manifest.json', false],
    [{ HOST: '127.0.0.1', PORT: '8080' }, 'http://[::1]:8080/remotes/team_marketing/mf-manifest.json', false],
    // Another port on loopback is another program; and with HOST on one address, loopback is not this server.
    [{ HOST: '0.0.0.0', PORT: '3000' }, 'http://127.0.0.1:3001/mf-manifest.json', true],
    [{ HOST: '10.0.0.4', PORT: '3000' }, 'http://127.0.0.1:3000/mf-manifest.json', true],
    [{ HOST: '0.0.0.0', PORT: '0' }, 'http://127.0.0.1:3000/mf-manifest.json', true],
    [{ HOST: '0.0.0.0', PORT: '3000' }, 'http://127.0.0.2:3000/mf-manifest.json', true],
  ])('%j, %s: refused %s', async (env, entry, expected) => {
    expect(await refused(env, entry)).toBe(expected);
  });
});

describe('loopback allowed (a product reached from its own machine only)', () => {
  const refusal = (answer: string) =>
    new ReleaseAddressGuard({
      config: () => ({ releaseOrigins: undefined, remotes: [], pending: [] }),
      loopbackAllowed: true,
      resolve: async () => [{ address: answer, family: answer.includes(':') ? 6 : 4 }],
    }).refusal('team_marketing', new URL('https://marketing.test/mf-manifest.json'));

  it.each(['127.0.0.2', '::1', '::ffff:127.0.0.1'])('takes a name resolving to %s, this machine', async (answer) => {
    expect(await refusal(answer)).toBeNull();
  });

  it.each([
    ['64:ff9b::7f00:1', 'a loopback address (127.0.0.1, in NAT64 form)'],
    ['2002:7f00:1::', 'a loopback address (127.0.0.1, in 6to4 form)'],
    ['::127.0.0.1', 'a loopback address (127.0.0.1, in IPv4-compatible form)'],
  ])("refuses a name resolving to %s, a translator's or a relay's loopback", async (answer, described) => {
    expect(await refusal(answer)).toContain(`whose host resolves to ${answer}, ${described}: remote "team_marketing"`);
  });
});
