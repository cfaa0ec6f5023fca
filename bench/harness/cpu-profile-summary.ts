import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { COMPILED_ROOT } from './compiled-entry';

/** The part of a V8 `.cpuprofile` (node --cpu-prof) this summary reads. */
interface CpuProfile {
  nodes: Array<{
    hitCount?: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
  }>;
}

export interface ProfileLine {
  /** Share of all samples spent in this function itself (not its callees), in percent. */
  selfPercent: number;
  frame: string;
}

/**
 * The functions with the most self time, heaviest first: where a target server spends its CPU under load. A file of
 * the compiled server is named from the repository (`server/http/send-json.js:7`, the compiled file's line), without
 * the folder compiled-entry.ts compiled its entry into.
 */
export function topSelfTime(profile: CpuProfile, limit = 25, compiledRoot = COMPILED_ROOT): ProfileLine[] {
  const byFrame = new Map<string, number>();
  let total = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    total += hits;
    const { functionName, url, lineNumber } = node.callFrame;
    const where = fromCompiledEntry(
      url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, 'node_modules/'),
      compiledRoot,
    );
    const frame = `${functionName || '(anonymous)'} ${where}${where ? `:${lineNumber + 1}` : ''}`;
    byFrame.set(frame, (byFrame.get(frame) ?? 0) + hits);
  }
  if (total === 0) return [];
  return [...byFrame]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([frame, hits]) => ({ selfPercent: (100 * hits) / total, frame }));
}

/** Writes `<profile>.top.txt` beside every `.cpuprofile` under `directory` (one folder per server). */
export async function summariseProfiles(directory: string): Promise<string[]> {
  let names: string[];
  try {
    names = (await readdir(directory, { recursive: true })).filter((name) => name.endsWith('.cpuprofile'));
  } catch {
    return [];
  }
  const written: string[] = [];
  for (const name of names) {
    const profile = JSON.parse(await readFile(path.join(directory, name), 'utf8')) as CpuProfile;
    const lines = topSelfTime(profile).map((line) => `${line.selfPercent.toFixed(1).padStart(5)}%  ${line.frame}`);
    const file = path.join(directory, `${name}.top.txt`);
    await writeFile(file, `Self time, heaviest first (${name}):\n${lines.join('\n')}\n`);
    written.push(file);
  }
  return written;
}

/** `<compiledRoot>/<entry>/server/x.js` → `server/x.js`; any other path as it is. */
function fromCompiledEntry(file: string, compiledRoot: string): string {
  if (!file.startsWith(`${compiledRoot}/`)) return file;
  return file.slice(compiledRoot.length + 1).replace(/^[^/]+\//, '');
}
