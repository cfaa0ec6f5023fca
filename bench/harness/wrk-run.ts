import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { NonSuccessfulLoadError, type LoadRunOptions, type LoadSample, type LoadTarget } from './load-run';

const run = promisify(execFile);

/**
 * wrk, the second load generator: a C client with its own event loop, so a figure does not depend on how fast a
 * Node client (autocannon, in the bench's own process) can parse answers. It runs as its own process on one thread,
 * leaving the other core to the server under test.
 */
export async function runWrk(target: LoadTarget, options: LoadRunOptions): Promise<LoadSample> {
  const args = ['-t1', `-c${options.connections}`, `-d${options.seconds}s`, '--latency', '--timeout', '10s'];
  for (const [name, value] of Object.entries(target.headers ?? {})) args.push('-H', `${name}: ${value}`);
  args.push(target.url);
  const { stdout } = await run(wrkBinary(), args, { maxBuffer: 1024 * 1024 });
  return parseWrkOutput(target.url, stdout);
}

/** The figures of wrk's text report; anything but 2xx answers (or a socket error) fails the run, as with autocannon. */
export function parseWrkOutput(url: string, output: string): LoadSample {
  const requestsLine = /(\d+) requests in ([\d.]+)(us|ms|s|m),\s*([\d.]+)([KMGT]?B) read/.exec(output);
  if (!requestsLine) throw new Error(`wrk printed no request count for ${url}:\n${output}`);
  const requests = Number(requestsLine[1]);
  const seconds = toSeconds(Number(requestsLine[2]), requestsLine[3] ?? 's');
  const bytes = toBytes(Number(requestsLine[4]), requestsLine[5] ?? 'B');
  const non2xx = Number(/Non-2xx or 3xx responses:\s*(\d+)/.exec(output)?.[1] ?? 0);
  const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const errors = socketErrors ? Number(socketErrors[1]) + Number(socketErrors[2]) + Number(socketErrors[3]) : 0;
  const timeouts = socketErrors ? Number(socketErrors[4]) : 0;
  if (non2xx > 0 || errors > 0 || timeouts > 0 || requests === 0) {
    throw new NonSuccessfulLoadError(url, { non2xx, errors, timeouts, statusCodes: {} });
  }
  return {
    requests,
    seconds,
    requestsPerSecond: requests / seconds,
    bytesPerSecond: bytes / seconds,
    latencyP50: percentile(output, 50),
    latencyP99: percentile(output, 99),
    latencyMean: latencyOf(/Latency\s+([\d.]+)(us|ms|s)/.exec(output), 'mean'),
  };
}

/** The path of wrk; installed with apt-get when missing and the bench runs as root (Debian's `wrk` package). */
export function wrkBinary(): string {
  const found = which('wrk');
  if (found) return found;
  if (process.getuid?.() === 0) {
    process.stderr.write('[bench] wrk is missing: apt-get install -y wrk\n');
    execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'wrk'], {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    const installed = which('wrk');
    if (installed) return installed;
  }
  throw new Error('wrk is not installed: apt-get install -y wrk (Debian package), then run the bench again.');
}

function which(command: string): string | null {
  try {
    return execFileSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' }).trim() || null;
  } catch {
    return null;
  }
}

function percentile(output: string, at: 50 | 99): number {
  return latencyOf(new RegExp(`^\\s*${at}%\\s+([\\d.]+)(us|ms|s)\\s*$`, 'm').exec(output), `p${at}`);
}

function latencyOf(match: RegExpExecArray | null, what: string): number {
  if (!match) throw new Error(`wrk printed no ${what} latency.`);
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

function toSeconds(value: number, unit: string): number {
  return unit === 'us' ? value / 1e6 : unit === 'ms' ? value / 1000 : unit === 'm' ? value * 60 : value;
}

function toBytes(value: number, unit: string): number {
  const power = { B: 0, KB: 1, MB: 2, GB: 3, TB: 4 }[unit] ?? 0;
  return value * 1024 ** power;
}
