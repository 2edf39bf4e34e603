import { realpathSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import {
  HomebodyError,
  PolicySchema,
  type GrantedFolder,
  type Policy,
  type PolicyMode,
  type Risk,
} from '../../src-shared/contract/index.js';

/** What a tool may do without asking when the user has said nothing about it (DESIGN.md). */
export const DEFAULT_MODE: Record<Risk, PolicyMode> = { read: 'ask', write: 'ask', irreversible: 'queue' };

export function emptyPolicy(): Policy {
  return { version: 1, tools: {}, folders: [] };
}

/** A tool that always asks (`alwaysAsk`) asks even where a policy written by hand says auto. */
export function modeFor(policy: Policy, tool: string, risk: Risk, alwaysAsk = false): PolicyMode {
  const mode = policy.tools[tool] ?? DEFAULT_MODE[risk];
  return alwaysAsk && mode === 'auto' ? 'ask' : mode;
}

/**
 * Irreversible actions always wait for an explicit approval; no policy can make them run alone. Nor can a tool
 * that always asks (opening a file or an address) be set to run without asking.
 */
export function checkMode(tool: string, risk: Risk, mode: PolicyMode, alwaysAsk = false): void {
  if (risk === 'irreversible' && mode === 'auto') {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${tool} cannot be undone, so it always waits in the approval queue; choose queue or off for it.`,
    );
  }
  if (alwaysAsk && mode === 'auto') {
    throw new HomebodyError(
      'INVALID_REQUEST',
      `${tool} always asks first, so that you see exactly what it does each time; choose ask, queue or off for it.`,
    );
  }
}

/** A folder as the policy keeps it: absolute, real (symlinks resolved) and existing. */
export function canonicalFolder(path: string): string {
  const absolute = resolve(path);
  let real: string;
  try {
    real = realpathSync(absolute);
  } catch {
    throw new HomebodyError('INVALID_REQUEST', `There is no folder at ${absolute}.`);
  }
  if (!statSync(real).isDirectory()) throw new HomebodyError('INVALID_REQUEST', `${absolute} is a file, not a folder.`);
  return real;
}

export function grantFolder(policy: Policy, folder: GrantedFolder): Policy {
  const path = canonicalFolder(folder.path);
  const others = policy.folders.filter((f) => f.path !== path);
  return { ...policy, folders: [...others, { path, untrusted: folder.untrusted }] };
}

export function revokeFolder(policy: Policy, path: string): Policy {
  const target = resolve(path);
  return { ...policy, folders: policy.folders.filter((f) => f.path !== target && f.path !== safeRealpath(target)) };
}

function safeRealpath(path: string): string | undefined {
  try {
    return realpathSync(path);
  } catch {
    return undefined;
  }
}

/**
 * Reads a policy from JSON (an import, or the stored copy): validated, tool
 * modes checked against the tools' risks, folders made canonical. Unknown
 * tools are kept, so a policy written for more tools survives a round trip.
 */
export function parsePolicy(
  raw: unknown,
  riskOf: (tool: string) => Risk | undefined,
  alwaysAsks: (tool: string) => boolean = () => false,
): Policy {
  const parsed = PolicySchema.safeParse(raw);
  if (!parsed.success) {
    throw new HomebodyError('INVALID_REQUEST', `This is not a Homebody policy: ${z.prettifyError(parsed.error)}`);
  }
  for (const [tool, mode] of Object.entries(parsed.data.tools)) {
    const risk = riskOf(tool);
    if (risk) checkMode(tool, risk, mode, alwaysAsks(tool));
  }
  return {
    ...parsed.data,
    folders: parsed.data.folders.map((f) => ({ path: canonicalFolder(f.path), untrusted: f.untrusted })),
  };
}
