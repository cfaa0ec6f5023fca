import { getFreePort } from '../../testing/system/free-port';
import { openMigratedStorage } from './open-storage';

describe('openMigratedStorage', () => {
  it('names PostgreSQL and its address, without the password, when nothing answers there', async () => {
    const port = await getFreePort();
    const url = `postgres://slots:secret-password@127.0.0.1:${port}/slots`;
    const attempt = openMigratedStorage({ kind: 'postgres', url, poolSize: 1, statementTimeoutMs: 2000 });
    await expect(attempt).rejects.toThrow(
      `Could not connect to PostgreSQL at postgres://slots:***@127.0.0.1:${port}/slots: connect ECONNREFUSED 127.0.0.1:${port}`,
    );
  });
});
