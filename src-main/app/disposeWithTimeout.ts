export type DisposeOutcome = 'disposed' | 'failed' | 'timed-out';

/**
 * Waits for an async cleanup, but never longer than `timeoutMs`: quitting must
 * not hang on a model that refuses to unload. The Host's own dispose flushes
 * SQLite (WAL, synchronous=FULL), so a timeout loses nothing committed.
 */
export async function disposeWithTimeout(dispose: () => Promise<void>, timeoutMs: number): Promise<DisposeOutcome> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<DisposeOutcome>((resolve) => {
    timer = setTimeout(() => resolve('timed-out'), timeoutMs);
  });
  const disposal = Promise.resolve()
    .then(dispose)
    .then(
      (): DisposeOutcome => 'disposed',
      (): DisposeOutcome => 'failed',
    );
  try {
    return await Promise.race([disposal, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
