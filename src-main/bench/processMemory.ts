import { readFileSync } from 'node:fs';

/** The kernel's record of a process's peak resident memory (`VmHWM` in /proc/<pid>/status), in bytes. */
export function parseVmHwm(status: string): number | null {
  const match = /^VmHWM:\s+(\d+)\s+kB$/m.exec(status);
  return match ? Number(match[1]) * 1024 : null;
}

/**
 * A process's peak RSS so far, read while it still runs: from /proc on Linux, null where there is none (or the
 * process is gone).
 */
export function peakRssOf(pid: number | 'self'): number | null {
  try {
    return parseVmHwm(readFileSync(`/proc/${pid}/status`, 'utf8'));
  } catch {
    return null;
  }
}

/** This process's peak RSS: /proc where it exists, else what the OS reports to Node (kilobytes). */
export function ownPeakRss(): number {
  return peakRssOf('self') ?? process.resourceUsage().maxRSS * 1024;
}
