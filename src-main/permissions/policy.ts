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
import { broadFolder, broadFolderWarning, folderIdentity, isInsideOrSame } from './grants.js';

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

/** How a grant is checked: the confirmation a broad folder needs, and Homebody's own folder, which is never granted. */
export interface GrantOptions {
  /** The user saw the warning for a broad folder (the disk, the home folder, a system folder) and confirmed. */
  readonly confirmBroad?: boolean;
  /** Homebody's data folder: the database and the secrets' key live there, so it and what is inside it are refused. */
  readonly dataDir?: string;
}

/** Checks a folder for granting and gives it as the policy keeps it: real path, and its identity now. */
export function grantable(folder: GrantedFolder, options: GrantOptions = {}): GrantedFolder {
  const path = canonicalFolder(folder.path);
  if (options.dataDir) {
    const dataDir = safeRealpath(resolve(options.dataDir)) ?? resolve(options.dataDir);
    if (isInsideOrSame(dataDir, path)) {
      throw new HomebodyError(
        'INVALID_REQUEST',
        `${path} is Homebody's own data folder (or inside it), where its database and keys are kept; it cannot be granted to tools.`,
      );
    }
  }
  const broad = broadFolder(path);
  if (broad && options.confirmBroad !== true) {
    throw new HomebodyError('CONFIRMATION_REQUIRED', broadFolderWarning(path, broad));
  }
  const identity = folderIdentity(path);
  return { path, untrusted: folder.untrusted, ...(identity ? { identity } : {}) };
}

/**
 * Grants a folder (again: a folder granted before is bound to its identity now, which is how a folder that changed
 * is trusted anew).
 */
export function grantFolder(policy: Policy, folder: GrantedFolder, options: GrantOptions = {}): Policy {
  const granted = grantable(folder, options);
  const others = policy.folders.filter((f) => f.path !== granted.path);
  return { ...policy, folders: [...others, granted] };
}

/** Binds grants recorded before identities were kept to the folder now at their path (an upgrade, once). */
export function bindIdentities(policy: Policy): Policy {
  if (policy.folders.every((f) => f.identity)) return policy;
  return {
    ...policy,
    folders: policy.folders.map((f) => {
      if (f.identity) return f;
      const identity = folderIdentity(f.path);
      return identity ? { ...f, identity } : f;
    }),
  };
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
 * Reads a policy from JSON (an import, or an edit): validated, tool modes checked against the tools' risks, folders
 * made canonical, checked as a grant is (a broad folder needs the confirmation) and bound to their identity now.
 * Unknown tools are kept, so a policy written for more tools survives a round trip.
 */
export function parsePolicy(
  raw: unknown,
  riskOf: (tool: string) => Risk | undefined,
  alwaysAsks: (tool: string) => boolean = () => false,
  grants: GrantOptions = {},
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
    // An identity in the file is another machine's (or another day's): the folders are bound as they are now.
    folders: parsed.data.folders.map((f) => grantable({ path: f.path, untrusted: f.untrusted }, grants)),
  };
}
