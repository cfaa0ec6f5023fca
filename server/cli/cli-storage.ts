import { describeStorage, openStorage, type StorageSettings } from '../storage/open-storage';
import type { StorageEngine } from '../storage/storage-engine';

/**
 * The database of a command (user:add, user:disable): opened and migrated as a server start would (PostgreSQL under
 * the migration lock), with where it is for the command's messages (never a password).
 */
export async function openCliStorage(settings: StorageSettings): Promise<{ engine: StorageEngine; where: string }> {
  const engine = openStorage(settings, () => undefined);
  try {
    await engine.migrate();
  } catch (error) {
    await engine.close();
    throw error;
  }
  return { engine, where: describeStorage(settings) };
}
