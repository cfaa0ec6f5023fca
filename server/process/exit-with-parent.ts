/**
 * Preloaded, compiled, by `npm start` and `npm run serve` (`node --require ./dist/server/process/exit-with-parent.js ...`): ends
 * the server gracefully, with a SIGTERM to itself, once the process that started it is gone. npm forwards SIGTERM
 * and SIGINT to the server but not SIGHUP: a `kill -HUP` sent to npm's own pid ends npm, and the server would run
 * on, orphaned, under init, with the old configuration. Started directly by a supervisor, its parent stays and
 * this does nothing.
 */
const PARENT_POLL_MS = 500;

const parent = process.ppid;
const timer = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(timer);
  console.error(`[exit-with-parent] the process that started the server (pid ${parent}) is gone; shutting down.`);
  process.kill(process.pid, 'SIGTERM');
}, PARENT_POLL_MS);
// Never what keeps the process alive.
timer.unref();

export {};
