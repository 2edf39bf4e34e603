import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { CallPath, PathRole } from '../../src-shared/contract/index.js';
import type { ResolvedPaths } from '../permissions/broker.js';
import {
  findRoot,
  isInsideOrSame,
  resolveEntry,
  resolveExisting,
  resolveForCreate,
  showPath,
  toAbsolute,
} from '../tools/sandbox/pathGuard.js';
import { looksLikeUrl } from '../tools/builtin/device/externalUrl.js';
import type { GrantedRoot, JsonValue } from '../tools/toolTypes.js';
import { ToolError } from '../tools/toolTypes.js';

/**
 * A call's path arguments resolved before anyone is asked, with the same functions the tool then uses (pathGuard),
 * so the prompt, the queue card and the audit log name the file that will be touched, and the call is then given
 * exactly that absolute path. A path outside every granted folder is refused here, before a prompt.
 */

export interface PathContext {
  /** The granted folders that are still the folders the user granted. */
  readonly roots: readonly GrantedRoot[];
  /** Granted folders that cannot be used now (replaced, moved, a link), with the sentence that says so. */
  readonly unusable: ReadonlyArray<{ readonly path: string; readonly message: string }>;
  /**
   * The first granted folder, which relative paths resolve against, whether or not it can be used now: a relative
   * path must not quietly move to the next folder when the first one changed.
   */
  readonly firstGrant: string | null;
  /** Homebody's own data folder: never touched by a tool through a path, even where a grant covers it. */
  readonly dataDir: string | null;
  /** The packs' folders, which device_open may open files in besides the granted folders. */
  readonly packFolders: readonly string[];
}

export interface CallPathsResolved {
  readonly resolved: ResolvedPaths;
  /** The arguments with each path replaced by the absolute one the user is shown (unchanged when refused). */
  readonly args: Record<string, JsonValue>;
}

function refusal(error: unknown, given: string, context: PathContext): ResolvedPaths {
  const absolute = (() => {
    try {
      return toAbsolute(context.roots, given);
    } catch {
      return undefined;
    }
  })();
  // A path in a granted folder that has since changed: say so, rather than "outside".
  const changed = absolute ? context.unusable.find((u) => isInsideOrSame(u.path, absolute)) : undefined;
  if (changed) return { ok: false, outside: true, reason: changed.message };
  if (error instanceof ToolError) {
    return { ok: false, outside: error.code === 'OUTSIDE_GRANTED_FOLDERS', reason: error.message };
  }
  return { ok: false, outside: false, reason: `${showPath(given)} cannot be used: ${(error as Error).message}` };
}

function dataDirRefusal(given: string, context: PathContext): ResolvedPaths {
  return {
    ok: false,
    outside: true,
    reason: `${showPath(given)} is in Homebody's own data folder (${context.dataDir}), which tools never touch.`,
  };
}

function inDataDir(context: PathContext, candidate: string, role: PathRole): boolean {
  if (!context.dataDir) return false;
  if (role === 'target' && context.packFolders.some((folder) => isInsideOrSame(folder, candidate))) return false;
  if (isInsideOrSame(context.dataDir, candidate)) return true;
  // Moving or deleting a folder that holds the data folder would take the data folder with it.
  return role === 'entry' && isInsideOrSame(candidate, context.dataDir);
}

async function resolveOne(
  role: PathRole,
  given: string,
  args: Record<string, JsonValue>,
  context: PathContext,
): Promise<{ path: string; shown: string; root: GrantedRoot } | 'url'> {
  const { roots } = context;
  switch (role) {
    case 'existing': {
      const { root, path: real } = await resolveExisting(roots, given);
      return { path: real, shown: real, root };
    }
    case 'entry': {
      const { root, path: entry } = await resolveEntry(roots, given);
      return { path: entry, shown: entry, root };
    }
    case 'create': {
      const { root, path: place } = await resolveForCreate(roots, given);
      return { path: place, shown: place, root };
    }
    case 'destination': {
      // An existing folder receives the entry under its own name (as the move and copy tools do).
      const source = typeof args.from === 'string' ? args.from : '';
      try {
        const folder = await resolveExisting(roots, given);
        if ((await stat(folder.path)).isDirectory()) {
          const name = path.basename(source === '' ? given : source);
          const place = await resolveForCreate(roots, path.join(folder.path, name));
          return { path: folder.path, shown: place.path, root: place.root };
        }
      } catch (error) {
        if (error instanceof ToolError && error.code === 'OUTSIDE_GRANTED_FOLDERS') throw error;
        // Not an existing folder: a new path, checked below.
      }
      const { root, path: place } = await resolveForCreate(roots, given);
      return { path: place, shown: place, root };
    }
    case 'target': {
      if (looksLikeUrl(given)) return 'url';
      const packRoots = context.packFolders.map((folder) => ({ path: folder, untrusted: false }));
      const { root, path: real } = await resolveExisting([...roots, ...packRoots], given);
      return { path: real, shown: real, root };
    }
    default:
      return role satisfies never;
  }
}

/** Resolves every declared path argument; the first that cannot be used refuses the whole call. */
export async function resolveCallPaths(
  pathArgs: Readonly<Record<string, PathRole>> | undefined,
  args: Record<string, JsonValue>,
  context: PathContext,
): Promise<CallPathsResolved> {
  if (!pathArgs) return { resolved: { ok: true, paths: [] }, args };
  const paths: CallPath[] = [];
  const resolvedArgs: Record<string, JsonValue> = { ...args };
  // Sources before destinations: a destination folder takes the source's name.
  const order = Object.entries(pathArgs).sort(
    ([, a], [, b]) => Number(a === 'destination') - Number(b === 'destination'),
  );
  for (const [arg, role] of order) {
    const given = args[arg];
    if (typeof given !== 'string') continue;
    const firstUnusable = context.unusable.find((u) => u.path === context.firstGrant);
    if (
      firstUnusable &&
      !path.isAbsolute(given) &&
      !given.startsWith('~') &&
      !(role === 'target' && looksLikeUrl(given))
    ) {
      return { resolved: { ok: false, outside: true, reason: firstUnusable.message }, args };
    }
    const lexical = (() => {
      try {
        return toAbsolute(context.roots, given);
      } catch {
        return undefined;
      }
    })();
    // Checked on the text first, so that the data folder's contents are not even reported as missing or present.
    if (lexical && inDataDir(context, lexical, role)) return { resolved: dataDirRefusal(given, context), args };
    let one: Awaited<ReturnType<typeof resolveOne>>;
    try {
      one = await resolveOne(role, given, resolvedArgs, context);
    } catch (error) {
      return { resolved: refusal(error, given, context), args };
    }
    if (one === 'url') continue;
    if (inDataDir(context, one.shown, role) || inDataDir(context, one.path, role)) {
      return { resolved: dataDirRefusal(given, context), args };
    }
    const root = findRoot(context.roots, one.shown) ?? one.root;
    const isGrant = context.roots.some((r) => r.path === root.path);
    paths.push({
      arg,
      role,
      given,
      path: one.shown,
      root: isGrant ? root.path : null,
      untrusted: isGrant && root.untrusted,
    });
    resolvedArgs[arg] = one.path;
  }
  return { resolved: { ok: true, paths }, args: resolvedArgs };
}
