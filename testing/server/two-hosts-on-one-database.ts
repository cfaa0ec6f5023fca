import { openMigratedStorage } from '../../server/storage/open-storage';
import type { StorageEngine } from '../../server/storage/storage-engine';
import type { EngineUnderTest } from './engines-under-test';

/** The engines of two hosts sharing one database: `engine` writes, `anotherHost` sees only what it committed. */
export interface TwoHosts {
  engine: StorageEngine;
  anotherHost: StorageEngine;
}

/**
 * Opens, before each case of the calling `describe`, a fresh database of this engine through two hosts' engines, and
 * closes both after it (ending the case's spies first, so none outlives its engine). The fields of the object returned
 * are the current case's; the calling suite's own `beforeEach` runs after these are open.
 */
export function twoHostsOnOneDatabase(engineUnderTest: EngineUnderTest): TwoHosts {
  const hosts = {} as TwoHosts;
  beforeAll(() => engineUnderTest.setUp(), 60_000);
  afterAll(() => engineUnderTest.tearDown(), 30_000);
  beforeEach(async () => {
    const settings = await engineUnderTest.freshDatabase();
    hosts.engine = await openMigratedStorage(settings);
    hosts.anotherHost = await openMigratedStorage(settings);
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await Promise.all([hosts.engine.close(), hosts.anotherHost.close()]);
  });
  return hosts;
}
