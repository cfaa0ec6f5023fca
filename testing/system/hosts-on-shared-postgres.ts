import { PostgresServer } from '../server/postgres-server';
import type { AppServer } from './app-server';

/** The suite's shared database and the hosts started on it (see useHostsOnSharedPostgres). */
export interface HostsOnSharedPostgres {
  /** DATABASE_URL of the database every host shares. */
  readonly databaseUrl: string;
  /** The hosts started and not yet taken out by a case: stopped after the suite's last test. */
  readonly started: AppServer[];
  /** Starts `count` hosts at the same moment, keeps those that started in `started`, and expects every one to. */
  startTogether(count: number): Promise<void>;
}

/**
 * Inside a `describeWithPostgres` suite: a throwaway PostgreSQL with one database, `database`, that the hosts the
 * suite starts with `startHost` share (started before its first test; the hosts, then PostgreSQL, gone after its last).
 */
export function useHostsOnSharedPostgres(
  database: string,
  startHost: (databaseUrl: string) => Promise<AppServer>,
): HostsOnSharedPostgres {
  let postgres: PostgresServer | undefined;
  let databaseUrl: string | undefined;
  const started: AppServer[] = [];

  beforeAll(async () => {
    postgres = await PostgresServer.start();
    databaseUrl = await postgres.createDatabase(database);
  });
  afterAll(async () => {
    await Promise.all(started.map((host) => host.stop()));
    await postgres?.remove();
  });

  const url = (): string => {
    if (databaseUrl === undefined) throw new Error('useHostsOnSharedPostgres: the PostgreSQL server did not start.');
    return databaseUrl;
  };
  return {
    get databaseUrl() {
      return url();
    },
    started,
    async startTogether(count) {
      const starts = await Promise.allSettled(Array.from({ length: count }, () => startHost(url())));
      for (const start of starts) if (start.status === 'fulfilled') started.push(start.value);
      expect(starts.map((start) => (start.status === 'rejected' ? String(start.reason) : 'started'))).toEqual(
        Array.from({ length: count }, () => 'started'),
      );
    },
  };
}
