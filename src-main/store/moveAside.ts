import { existsSync, renameSync } from 'node:fs';

/**
 * Moves a damaged database (and its WAL and shared-memory files, which belong to it) to a new name beside
 * it, so a fresh history can start without overwriting a byte of the old one. Returns the new path.
 */
export function moveDamagedAside(path: string, now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replaceAll(':', '-')
    .replace(/\.\d+Z$/u, 'Z');
  let target = `${path}.damaged-${stamp}`;
  for (let n = 2; existsSync(target); n++) target = `${path}.damaged-${stamp}-${n}`;
  renameSync(path, target);
  for (const suffix of ['-wal', '-shm']) {
    if (existsSync(path + suffix)) renameSync(path + suffix, target + suffix);
  }
  return target;
}
