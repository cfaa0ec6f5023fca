import { reachedFromThisMachineOnly } from './release-address-guard';

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
  ])('development %s, %j, PUBLIC_URL %s: %s', (development, env, publicOrigin, expected) => {
    expect(reachedFromThisMachineOnly(development, env, publicOrigin)).toBe(expected);
  });
});
