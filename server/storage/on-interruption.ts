/**
 * Runs `cleanUp` when the process is told to stop (Ctrl-C, a supervisor's or `timeout`'s SIGTERM, a closed terminal)
 * and then stops as it was told. The database commands that write a file of some hundred MiB (db:backup, db:restore)
 * take seconds, and one cut short left its partial copy behind.
 * @returns what stops watching
 */
export function onInterruption(cleanUp: () => void): () => void {
  const signals: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  const stop = (): void => {
    for (const signal of signals) process.off(signal, interrupted);
  };
  function interrupted(signal: NodeJS.Signals): void {
    stop();
    cleanUp();
    process.kill(process.pid, signal);
  }
  for (const signal of signals) process.on(signal, interrupted);
  return stop;
}
