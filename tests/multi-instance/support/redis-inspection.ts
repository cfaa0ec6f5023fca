import { createClient } from 'redis';

/**
 * Every key of a (test) Redis with its string value, read with SCAN, so a test can show what an instance stored
 * there rather than in its SQLite file. Non-string values are listed with their type in place of a value.
 */
export async function readRedisStrings(url: string): Promise<Map<string, string>> {
  const client = createClient({ url });
  await client.connect();
  try {
    const entries = new Map<string, string>();
    for await (const keys of client.scanIterator({ COUNT: 100 })) {
      for (const key of keys) {
        const type = await client.type(key);
        entries.set(key, type === 'string' ? ((await client.get(key)) ?? '') : `<${type}>`);
      }
    }
    return entries;
  } finally {
    await client.close();
  }
}
