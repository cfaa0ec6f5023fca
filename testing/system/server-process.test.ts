import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { ended, FREE_PORT_MODULE, otherProcess, portNobodyHolds } from './free-port-other-runs';
import { startServerProcess } from './server-process';

/** A tiny real server: answers /readyz, prints the pid of a grandchild it keeps running, echoes one env variable. */
const SCRIPT = `
const http = require('node:http');
const { spawn } = require('node:child_process');
const grandchild = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
console.log('grandchild=' + grandchild.pid);
console.error('greeting=' + process.env.GREETING);
http.createServer((req, res) => {
  res.writeHead(req.url === '/readyz' ? 200 : 404, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify({ status: 'ok', port: process.env.PORT }));
}).listen(Number(process.env.PORT), process.env.HOST);
`;

/** Alive and not a zombie waiting for init to reap it. */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  const stat = readStat(pid);
  return !/^\d+ \(.*\) Z/.test(stat);
}

function readStat(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}

async function eventually(check: () => boolean, timeoutMs = 3_000): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (check()) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return check();
}

function getJson(url: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: false }, (response) => {
        let body = '';
        response.on('data', (chunk: Buffer) => (body += chunk.toString()));
        response.on('end', () => resolve(JSON.parse(body)));
      })
      .on('error', reject);
  });
}

describe('startServerProcess', () => {
  it('waits for /readyz, passes PORT, HOST and env, captures output, and stop() kills the whole process group', async () => {
    const server = await startServerProcess({ name: 'echo server', args: ['-e', SCRIPT], env: { GREETING: 'hello' } });
    try {
      expect(await getJson(`${server.url}/readyz`)).toEqual({ status: 'ok', port: String(server.port) });
      const [, grandchild] = await server.waitForOutput(/grandchild=(\d+)/);
      await server.waitForOutput(/greeting=hello/);
      expect(server.stderr()).toContain('greeting=hello');
      expect(isRunning(Number(grandchild))).toBe(true);

      const exit = await server.stop();
      expect(exit.signal).toBe('SIGTERM');
      // The grandchild got the same SIGTERM through the group; the kernel may take a moment to reap it.
      expect(await eventually(() => !isRunning(Number(grandchild)))).toBe(true);
      expect(isRunning(server.pid)).toBe(false);
      expect(await server.stop()).toBe(exit);
    } finally {
      await server.stop();
    }
  });

  it('fails with the exit status and the captured output when the process dies before it is ready', async () => {
    await expect(
      startServerProcess({
        name: 'broken server',
        args: ['-e', 'console.error("cannot open database"); process.exit(3)'],
      }),
    ).rejects.toThrow(/broken server did not become ready[\s\S]*code 3[\s\S]*cannot open database/);
  });

  it('gives up after readyTimeoutMs when /readyz never answers 200, and stops the process', async () => {
    const script =
      `require('node:http').createServer((q, s) => { s.writeHead(503); s.end(); })` +
      `.listen(Number(process.env.PORT), process.env.HOST); console.log('pid=' + process.pid);`;
    await expect(startServerProcess({ args: ['-e', script], readyTimeoutMs: 800 })).rejects.toThrow(
      /timed out after 800 ms \(last answer was HTTP 503\)[\s\S]*pid=(\d+)/,
    );
  });

  describe('with killGroupOnExit: false, on a range of one port (a process of its own)', () => {
    /** Runs `steps` (an async function's body, given `start`, `getFreePort` and `noFreePort`); what it returns. */
    async function inRangeOfOnePort(steps: string): Promise<{ port: number; answer: unknown }> {
      const port = await portNobodyHolds();
      const code = `(async () => {
        const { startServerProcess } = require(${JSON.stringify(path.join(__dirname, 'server-process.ts'))});
        const { getFreePort } = require(${JSON.stringify(FREE_PORT_MODULE)});
        const start = (script) => startServerProcess({ args: ['-e', script], killGroupOnExit: false });
        const noFreePort = () => getFreePort().then(() => false, (error) => /^No free port/.test(error.message));
        ${steps}
      })().then((answer) => console.log(JSON.stringify({ port: ${port}, answer })), (error) => console.log(error.stack));`;
      const run = otherProcess(code, { TEST_PORT_RANGE: `${port}-${port}` });
      try {
        const line = await run.answer;
        expect(line).toMatch(/^\{/);
        const { answer } = JSON.parse(line) as { answer: unknown };
        return { port, answer };
      } finally {
        await ended(run.child);
      }
    }

    /** A leader that listens on PORT itself, and a child of its group that shrugs SIGTERM off. */
    const LEADER_LISTENS = `
      const child = require('node:child_process').spawn(process.execPath,
        ['-e', 'process.on("SIGTERM", () => {}); setInterval(() => {}, 1000)'], { stdio: 'ignore' });
      console.log('child=' + child.pid);
      require('node:http').createServer((q, s) => s.end()).listen(Number(process.env.PORT), process.env.HOST);`;

    it('stop() kills what the group kept after the leader went on SIGTERM, then gives the port back', async () => {
      const { port, answer } = await inRangeOfOnePort(`
        const server = await start(${JSON.stringify(LEADER_LISTENS)});
        const [, child] = await server.waitForOutput(/child=(\\d+)/);
        const heldWhileRunning = await noFreePort();
        const exit = await server.stop();
        return { heldWhileRunning, exit, child: Number(child), after: await getFreePort() };`);
      const { heldWhileRunning, exit, child, after } = answer as Record<string, unknown>;
      expect({ heldWhileRunning, exit, after }).toEqual({
        heldWhileRunning: true,
        exit: { code: null, signal: 'SIGTERM' },
        after: port,
      });
      expect(isRunning(child as number)).toBe(false);
    }, 30_000);

    /** A leader that exits on SIGUSR2, leaving the child of its group that listens on PORT. */
    const CHILD_LISTENS = `
      const child = require('node:child_process').spawn(process.execPath, ['-e',
        'require("node:http").createServer((q, s) => s.end()).listen(Number(process.env.PORT), process.env.HOST)'],
        { stdio: 'ignore' });
      process.on('SIGUSR2', () => process.exit(0));
      setInterval(() => {}, 1000);`;

    it('keeps the port while a child the leader left listens there, and gives it back once stop() ended it', async () => {
      const { port, answer } = await inRangeOfOnePort(`
        const server = await start(${JSON.stringify(CHILD_LISTENS)});
        process.kill(server.pid, 'SIGUSR2');
        const exit = await server.exited;
        const stillAnswers = (await fetch(server.url + '/readyz')).status;
        const heldAfterExit = await noFreePort();
        await server.stop();
        return { exit, stillAnswers, heldAfterExit, after: await getFreePort() };`);
      expect(answer).toEqual({ exit: { code: 0, signal: null }, stillAnswers: 200, heldAfterExit: true, after: port });
    }, 30_000);
  });
});
