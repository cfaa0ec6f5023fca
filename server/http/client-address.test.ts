import express from 'express';
import request from 'supertest';
import { clientAddress, type TrustProxyFn } from './client-address';

/**
 * The public fast path answers before Express, so the request log reads the client's address itself: it must be
 * what Express's `req.ip` says of the same request, for every kind of `trust proxy` setting the server takes.
 */
describe("clientAddress: Express's req.ip without Express", () => {
  const SETTINGS: readonly (boolean | number | string)[] = [false, 1, 2, 'loopback', 'uniquelocal', '10.0.0.0/8'];
  const HEADERS: readonly (string | undefined)[] = [
    undefined,
    '203.0.113.7',
    '203.0.113.7, 10.0.0.5',
    '198.51.100.1, 203.0.113.7, 127.0.0.1',
    ' 203.0.113.9 ,10.1.2.3 ',
    '',
  ];

  it.each(SETTINGS)('agrees with req.ip under trust proxy = %p', async (setting) => {
    const app = express();
    app.set('trust proxy', setting);
    app.get('/', (req, res) => {
      res.json({
        express: req.ip ?? null,
        ours: clientAddress(req, app.get('trust proxy fn') as TrustProxyFn) ?? null,
      });
    });
    for (const forwarded of HEADERS) {
      const call = request(app).get('/');
      const { body } = await (forwarded === undefined ? call : call.set('X-Forwarded-For', forwarded));
      expect({ forwarded, ...body }).toEqual({ forwarded, express: body.express, ours: body.express });
    }
  });
});
