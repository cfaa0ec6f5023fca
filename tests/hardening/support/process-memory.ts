import { readFileSync } from 'node:fs';

/** Resident set size of a process in bytes, from /proc (Linux); null once the process is gone. */
export function residentBytes(pid: number): number | null {
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return null;
  }
  const kib = /^VmRSS:\s+(\d+)\s+kB$/m.exec(status)?.[1];
  return kib === undefined ? null : Number(kib) * 1024;
}

export interface MemorySample {
  atMs: number;
  rssBytes: number;
}

/** Samples a process's RSS every `intervalMs` until stopped. */
export function sampleMemory(pid: number, intervalMs: number): { stop(): MemorySample[] } {
  const samples: MemorySample[] = [];
  const started = Date.now();
  const take = () => {
    const rssBytes = residentBytes(pid);
    if (rssBytes !== null) samples.push({ atMs: Date.now() - started, rssBytes });
  };
  take();
  const timer = setInterval(take, intervalMs);
  return {
    stop: () => {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}
