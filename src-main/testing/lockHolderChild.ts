/*
 * Tests only (store/dataFolderLock.int.test.ts): a process that takes a data folder's lock and holds it until told.
 * It prints {"held": pid} once it holds the folder (or {"refused": message}), then reads one word a line on stdin:
 *   release   lets go as a clean exit does, then exits 0
 *   exit      exits 0 without letting go itself: the operating system must release the lock
 * A SIGKILL from the test stands for a crash.
 *
 * Usage: node build/tsc/src-main/testing/lockHolderChild.js DIR COMMAND
 */
import { createInterface } from 'node:readline';
import { lockDataFolder } from '../store/dataFolderLock.js';

const [dir = '', command = 'homebody serve'] = process.argv.slice(2);
const report = (line: object) => process.stdout.write(`${JSON.stringify(line)}\n`);

try {
  const lock = await lockDataFolder(
    dir,
    { pid: process.pid, command, startedAt: Date.now(), brief: false },
    { waitMs: 0 },
  );
  report({ held: process.pid });
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'release') lock.release();
    if (line === 'release' || line === 'exit') process.exit(0);
  });
} catch (error) {
  report({ refused: (error as Error).message });
  process.exit(1);
}
