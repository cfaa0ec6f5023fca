import { existsSync, watch, type FSWatcher } from 'node:fs';
import path from 'node:path';
import { REMOTE_DECLARATION_FILE } from './webpack';

/** Saves closer together than this are one change (editors write a file in several steps). */
const SETTLE_MS = 150;

/**
 * Calls `onChange` once a burst of changes to a remote's declaration (`remote.ts`) or its `components/` folder
 * settles: `slots-remote dev` then re-reads the declaration, so a component added while it runs is exposed and
 * listed in `slots-remote.json` without a restart. Returns the function that stops watching.
 */
export function watchDeclaration(dir: string, onChange: () => void): () => void {
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  };
  // The folder, not the file: an editor saving by rename would leave a watcher on the file watching nothing.
  const watchers: FSWatcher[] = [
    watch(dir, (_event, file) => {
      if (file === REMOTE_DECLARATION_FILE || file === 'components') changed();
    }),
  ];
  const components = path.join(dir, 'components');
  if (existsSync(components)) watchers.push(watch(components, changed));
  return () => {
    clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
