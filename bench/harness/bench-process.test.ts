import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ServerProcess } from '../../testing/system/server-process';
import { startBenchProcess } from './bench-process';
import { compiledEntry } from './compiled-entry';

const ENTRY = 'bench/baselines/static-bytes-node-server.ts';

describe('startBenchProcess', () => {
  let dir: string;
  let server: ServerProcess | undefined;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'bench-process-'));
  });

  afterAll(async () => {
    await server?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  it('runs the entry compiled, with node alone, and it answers', async () => {
    const body = path.join(dir, 'body.json');
    await writeFile(body, '{"compiled":true}');
    server = await startBenchProcess({
      name: 'compiled baseline',
      entry: ENTRY,
      logFile: path.join(dir, 'baseline.log'),
      env: { BODY_FILE: body, ROUTE_PATH: '/bytes' },
    });

    const response = await fetch(`${server.url}/bytes`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"compiled":true}');

    // The process is the server itself (`sh -c exec`), started as `node <compiled JavaScript>`: no tsx loader.
    const commandLine = (await readFile(`/proc/${server.pid}/cmdline`, 'utf8')).split('\0').filter(Boolean);
    const { file } = await compiledEntry(ENTRY);
    expect(commandLine).toEqual([process.execPath, file]);
    expect(file).toMatch(/\/\.tsbuild\/bench-compiled\/bench-baselines-static-bytes-node-server\/.*\.js$/);
    expect(existsSync(`${file}.map`)).toBe(true);
  });

  it('compiles an entry once per bench process', async () => {
    expect(compiledEntry(ENTRY)).toBe(compiledEntry(ENTRY));
    expect((await compiledEntry('server/main.ts')).file).toMatch(/\/bench-compiled\/server-main\/server\/main\.js$/);
  });
});
