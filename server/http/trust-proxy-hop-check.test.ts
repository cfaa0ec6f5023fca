import express from 'express';
import request from 'supertest';
import { createTrustProxyHopCheck, tooManyHopsMessage } from './trust-proxy-hop-check';

/** An app behind `trust proxy` = `setting`, answering the address Express takes as the client's. */
function appWith(setting: false | number | string[]) {
  const warn = jest.fn();
  const app = express();
  app.set('trust proxy', setting);
  app.use(...createTrustProxyHopCheck(setting, { warn } as never), (req, res) => {
    res.json({ ip: req.ip });
  });
  return { app, warn };
}

describe('createTrustProxyHopCheck', () => {
  it('warns once, naming TRUST_PROXY and what to set, when requests come through fewer proxies than trusted', async () => {
    // TRUST_PROXY=2 behind one proxy: the proxy appends the one address it saw.
    const { app, warn } = appWith(2);
    const forged = await request(app).get('/').set('X-Forwarded-For', '192.0.2.66, 203.0.113.7');
    // What the warning is about: a client that writes X-Forwarded-For itself picks its address.
    expect(forged.body).toEqual({ ip: '192.0.2.66' });
    expect(warn).not.toHaveBeenCalled();
    for (let i = 0; i < 5; i++) await request(app).get('/').set('X-Forwarded-For', `203.0.113.${i}`);
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn).toHaveBeenCalledWith(
      { setting: 'TRUST_PROXY', trustedHops: 2, arrivedHops: 1 },
      tooManyHopsMessage(2, 1),
    );
    const message = tooManyHopsMessage(2, 1);
    expect(message).toMatch(/^TRUST_PROXY=2 trusts 2 proxy hops, but a request arrived through 1 /);
    expect(message).toContain('Set TRUST_PROXY to the number of proxies in front of this server (at most 1 here)');
  });

  it('warns for a hop count far above any real chain (TRUST_PROXY=1000)', async () => {
    const { app, warn } = appWith(1000);
    await request(app).get('/').set('X-Forwarded-For', '198.51.100.1, 10.0.0.2, 10.0.0.3');
    expect(warn).toHaveBeenCalledWith(
      expect.objectContaining({ trustedHops: 1000, arrivedHops: 3 }),
      expect.any(String),
    );
  });

  it('stays silent when every request carries the trusted hops, or none (a health check from the host itself)', async () => {
    const { app, warn } = appWith(2);
    await request(app).get('/').set('X-Forwarded-For', '203.0.113.7, 10.0.0.2');
    await request(app).get('/').set('X-Forwarded-For', '192.0.2.1, 203.0.113.7, 10.0.0.2');
    await request(app).get('/');
    expect(warn).not.toHaveBeenCalled();
  });

  it('has nothing to check unless TRUST_PROXY is a hop count above one', () => {
    const logger = { warn: jest.fn() } as never;
    expect(createTrustProxyHopCheck(false, logger)).toEqual([]);
    expect(createTrustProxyHopCheck(1, logger)).toEqual([]);
    expect(createTrustProxyHopCheck(['loopback', '10.0.0.0/8'], logger)).toEqual([]);
    expect(createTrustProxyHopCheck(2, logger)).toHaveLength(1);
  });
});
