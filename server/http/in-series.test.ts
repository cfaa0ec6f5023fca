import express, { type RequestHandler } from 'express';
import request from 'supertest';
import { inSeries } from './in-series';

function appWith(chain: RequestHandler) {
  const app = express();
  app.use('/here', chain);
  app.get('/here', (req, res) => {
    res.json({ seen: (req as unknown as { seen: string[] }).seen });
  });
  app.use((error: unknown, _req: express.Request, res: express.Response, _next: express.NextFunction) => {
    res.status(500).json({ error: error instanceof Error ? error.message : String(error) });
  });
  return app;
}

const mark =
  (name: string): RequestHandler =>
  (req, _res, next) => {
    const holder = req as unknown as { seen?: string[] };
    (holder.seen ??= []).push(`${name}:${req.url}`);
    next();
  };

describe('inSeries', () => {
  it('runs every handler in order, with the path as a layer mounted there sees it, then goes on', async () => {
    const chain = inSeries([mark('a'), (req, res, next) => setImmediate(() => mark('b')(req, res, next)), mark('c')]);
    const response = await request(appWith(chain)).get('/here');
    expect(response.body).toEqual({ seen: ['a:/', 'b:/', 'c:/'] });
  });

  it('stops at an error passed on, thrown or rejected, and hands it to the error handler', async () => {
    const failures: RequestHandler[] = [
      (_req, _res, next) => next(new Error('passed on')),
      () => {
        throw new Error('thrown');
      },
      async () => {
        await Promise.resolve();
        throw new Error('rejected');
      },
    ];
    for (const failure of failures) {
      const after = jest.fn<void, []>();
      const chain = inSeries([
        mark('a'),
        failure,
        (_req, _res, next) => {
          after();
          next();
        },
      ]);
      const response = await request(appWith(chain)).get('/here');
      expect(response.status).toBe(500);
      expect(['passed on', 'thrown', 'rejected']).toContain(response.body.error);
      expect(after).not.toHaveBeenCalled();
    }
  });

  it('passes through with an empty list', async () => {
    expect((await request(appWith(inSeries([]))).get('/here')).body).toEqual({});
  });
});
