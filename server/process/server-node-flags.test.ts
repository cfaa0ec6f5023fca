import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SERVER_NODE_FLAGS } from './server-node-flags';

const ROOT = path.join(__dirname, '..', '..');
const packageScripts = (
  JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  }
).scripts;

/** The words of the node command in `script`, from `node` to the entry it runs. */
function nodeFlagsOf(command: string): string[] {
  const words = command.split(/\s+/);
  const node = words.indexOf('node');
  expect(node).toBeGreaterThanOrEqual(0);
  return words.slice(node + 1).filter((word) => word.startsWith('--') && word !== '--require');
}

it.each(['start', 'serve'])('npm run %s starts the server with every flag of SERVER_NODE_FLAGS', (script) => {
  expect(nodeFlagsOf(packageScripts[script]!)).toEqual(SERVER_NODE_FLAGS);
});

it("the image's CMD starts the server with every flag of SERVER_NODE_FLAGS", () => {
  const cmd = /^CMD (\[.*\])$/m.exec(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8'));
  expect(cmd).not.toBeNull();
  expect(JSON.parse(cmd![1]!)).toEqual(['node', ...SERVER_NODE_FLAGS, 'dist/entry.js']);
});
