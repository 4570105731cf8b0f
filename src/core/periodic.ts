/** The slice of a pino logger that background work needs. */
export interface TaskLogger {
  debug(object: object, message: string): void;
  warn(object: object, message: string): void;
}

/**
 * Runs `task` every `intervalMs` without keeping the process alive and without overlapping
 * runs. The returned stop function waits for a run in progress, so the database is never
 * closed under it.
 */
export function runPeriodically(task: () => Promise<unknown>, intervalMs: number, logger: TaskLogger | undefined, label: string): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (running) return;
    running = task()
      .then((result) => logger?.debug({ result }, label))
      .catch((error: unknown) => logger?.warn({ err: error }, `${label} failed`))
      .finally(() => {
        running = undefined;
      });
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
