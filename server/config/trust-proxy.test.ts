import express from 'express';
import { trustProxyFromEnv } from './trust-proxy';

describe('trustProxyFromEnv', () => {
  it('takes the subnets Express takes, prefixes and netmasks alike', () => {
    const values = [
      '10.0.0.0/8',
      '10.0.0.1/32',
      '10.0.0.0/255.0.0.0',
      '192.168.0.0/255.255.255.252',
      'fd00::/8',
      '::1/128',
    ];
    const list = trustProxyFromEnv({ TRUST_PROXY: values.join(', ') });
    expect(list).toEqual(values);
    // Express compiles the setting when it is set: what is taken here, it takes.
    expect(() => express().set('trust proxy', list)).not.toThrow();
  });

  it.each(['10.0.0.0/33', '10.0.0.0/0', 'fd00::/129', '10.0.0.0/255.0.255.0', '10.0.0.0/0.0.0.0', 'fd00::/255.0.0.0'])(
    'refuses the subnet %s, naming the setting, where Express would say only "invalid range on address"',
    (value) => {
      expect(() => express().set('trust proxy', [value])).toThrow(/invalid range on address/);
      expect(() => trustProxyFromEnv({ TRUST_PROXY: `loopback, ${value}` })).toThrow(
        `TRUST_PROXY="loopback, ${value}" is not valid: expected false, a hop count, or a comma-separated list of ` +
          'addresses, subnets or loopback/linklocal/uniquelocal.',
      );
    },
  );
});
