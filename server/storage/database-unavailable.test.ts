import { Pool } from 'pg';
import { getFreePort } from '../../testing/system/free-port';
import { toHttpError } from '../http/error-handler';
import { isDatabaseUnavailable } from './database-unavailable';

describe('isDatabaseUnavailable', () => {
  it('recognises a PostgreSQL nobody answers for, and the error handler answers it 503', async () => {
    const pool = new Pool({ connectionString: `postgres://nobody@127.0.0.1:${await getFreePort()}/none` });
    const error = await pool.query('SELECT 1').then(
      () => undefined,
      (failure: unknown) => failure,
    );
    await pool.end();
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(toHttpError(error).status).toBe(503);
    expect(toHttpError(error).toBody().error.code).toBe('unavailable');
  });

  it.each([
    [{ code: '57P01', message: 'terminating connection due to administrator command' }, true],
    [{ code: '08006', message: 'connection failure' }, true],
    [{ code: '57014', message: 'canceling statement due to statement timeout' }, true],
    [new Error('Connection terminated unexpectedly'), true],
    [new Error('timeout exceeded when trying to connect'), true],
    [{ code: '23505', message: 'duplicate key value violates unique constraint' }, false],
    [{ code: '42P01', message: 'relation "nowhere" does not exist' }, false],
    [new Error('something else'), false],
    ['ECONNREFUSED', false],
  ])('%j -> %s', (error, unavailable) => {
    expect(isDatabaseUnavailable(error)).toBe(unavailable);
  });
});
