import { describeStorage, openMigratedStorage, type StorageSettings } from '../storage/open-storage';
import type { StorageEngine } from '../storage/storage-engine';

/**
 * Opens and migrates the storage the settings point at, as a server start does, runs `use` with it and where it is
 * (for messages: a PostgreSQL URL without its password), and closes it however `use` ends, so a command that
 * fails or returns early never leaves the database open behind it.
 */
export async function withStorage<T>(
  settings: StorageSettings,
  use: (engine: StorageEngine, where: string) => Promise<T>,
): Promise<T> {
  const engine = await openMigratedStorage(settings);
  try {
    return await use(engine, describeStorage(settings));
  } finally {
    await engine.close();
  }
}
