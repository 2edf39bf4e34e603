import path from 'node:path';
import { isWithin, type SandboxSpec } from './sandboxSpec.js';

/**
 * bubblewrap's command line for a SandboxSpec, in two pure steps: planMounts() orders what the sandbox's filesystem
 * is made of (an empty root, then each folder bound over it, shallow before deep), and bwrapArgs() writes that plan
 * as arguments. bwrap applies its arguments in order, so a later, deeper step lies over an earlier one: that is how
 * the data folder is covered by an empty, read-only tmpfs even when the user granted `/`, and how the trash and the
 * packs' folders inside it are shown again.
 */

/** What the host has at a path of the runtime's own (`/usr`, `/lib64`, the Node or Electron binary's folder). */
export type SystemEntry =
  | { readonly path: string; readonly kind: 'folder' | 'file' }
  | { readonly path: string; readonly kind: 'symlink'; readonly target: string };

/** Where a bind's source comes from: a user's or pack's folder (opened and checked first), code, or the system. */
export type BindOrigin = 'folder' | 'code' | 'system';

export type MountStep =
  | {
      readonly kind: 'bind';
      readonly path: string;
      readonly access: 'read' | 'write';
      readonly origin: BindOrigin;
    }
  | { readonly kind: 'symlink'; readonly path: string; readonly target: string }
  /** A fresh procfs (for the worker's own /proc/self/fd), a minimal /dev, a private writable /tmp. */
  | { readonly kind: 'proc' | 'dev' | 'tmp'; readonly path: string }
  /** An empty tmpfs over a folder the worker must not see. */
  | { readonly kind: 'hide'; readonly path: string }
  /** Made read-only once everything is mounted: the root, and each hidden folder's tmpfs. */
  | { readonly kind: 'readonly'; readonly path: string };

const ACCESS_RANK = { read: 0, write: 1 } as const;
const ORIGIN_RANK = { code: 0, system: 1, folder: 2 } as const;

function depth(p: string): number {
  return p === path.sep ? 0 : p.split(path.sep).length - 1;
}

/** Steps at the same depth: the private /tmp first (a grant of /tmp lies over it), hidden folders last. */
function layer(step: MountStep): number {
  switch (step.kind) {
    case 'proc':
    case 'dev':
    case 'tmp':
      return 0;
    case 'bind':
    case 'symlink':
      return 1;
    case 'hide':
      return 2;
    case 'readonly':
      return 3;
    default:
      return step satisfies never;
  }
}

/** One bind per path: the strongest access, and a checked folder over code or system of the same path. */
function mergeBinds(steps: readonly MountStep[]): MountStep[] {
  const binds = new Map<string, Extract<MountStep, { kind: 'bind' }>>();
  const others: MountStep[] = [];
  for (const step of steps) {
    if (step.kind !== 'bind') {
      others.push(step);
      continue;
    }
    const known = binds.get(step.path);
    binds.set(
      step.path,
      known
        ? {
            ...step,
            access: ACCESS_RANK[known.access] >= ACCESS_RANK[step.access] ? known.access : step.access,
            origin: ORIGIN_RANK[known.origin] >= ORIGIN_RANK[step.origin] ? known.origin : step.origin,
          }
        : step,
    );
  }
  return [...others, ...binds.values()];
}

/**
 * Whether `step` changes what the sandbox shows, given the step it would lie on (undefined: the empty root) and
 * whether folders are bound inside it.
 */
function needed(step: MountStep, under: MountStep | undefined, holdsBinds: boolean): boolean {
  const hostBelow = under?.kind === 'bind';
  switch (step.kind) {
    case 'bind':
      // Already visible, with at least this access, through a folder bound above it.
      return !(under?.kind === 'bind' && ACCESS_RANK[under.access] >= ACCESS_RANK[step.access]);
    case 'symlink':
      // The host's own link is already there.
      return !hostBelow;
    case 'tmp':
      // A granted folder above it, writable, already gives the real /tmp.
      return !(under?.kind === 'bind' && under.access === 'write');
    case 'hide':
      // Where a host folder shows it, or where folders are shown inside it: either way it is an empty, read-only
      // folder there (not a writable one in the private /tmp), holding only those folders.
      return hostBelow || holdsBinds;
    case 'proc':
    case 'dev':
    case 'readonly':
      return true;
    default:
      return step satisfies never;
  }
}

const normalised = (step: MountStep): MountStep => ({ ...step, path: path.resolve(step.path) });

/** The runtime's folders and links, then /proc, /dev and /tmp, the spec's folders, and the hidden ones, in order. */
export function planMounts(spec: SandboxSpec, system: readonly SystemEntry[]): MountStep[] {
  const wanted: MountStep[] = [
    ...system.map((entry): MountStep =>
      entry.kind === 'symlink'
        ? { kind: 'symlink', path: entry.path, target: entry.target }
        : { kind: 'bind', path: entry.path, access: 'read', origin: 'system' },
    ),
    { kind: 'proc', path: '/proc' },
    { kind: 'dev', path: '/dev' },
    { kind: 'tmp', path: '/tmp' },
    ...spec.code.map((p): MountStep => ({ kind: 'bind', path: p, access: 'read', origin: 'code' })),
    ...spec.system.map((p): MountStep => ({ kind: 'bind', path: p, access: 'read', origin: 'system' })),
    ...spec.read.map((f): MountStep => ({ kind: 'bind', path: f.path, access: 'read', origin: 'folder' })),
    ...spec.write.map((f): MountStep => ({ kind: 'bind', path: f.path, access: 'write', origin: 'folder' })),
    ...spec.hidden.map((p): MountStep => ({ kind: 'hide', path: p })),
  ];
  const steps = wanted.map(normalised);

  const ordered = mergeBinds(steps).sort(
    (a, b) => depth(a.path) - depth(b.path) || layer(a) - layer(b) || a.path.localeCompare(b.path),
  );
  const plan: MountStep[] = [];
  for (const step of ordered) {
    let under: MountStep | undefined;
    for (let i = plan.length - 1; i >= 0 && !under; i--) {
      const candidate = plan[i]!;
      if (candidate.kind !== 'symlink' && isWithin(candidate.path, step.path)) under = candidate;
    }
    const holdsBinds = ordered.some((s) => s.kind === 'bind' && s.path !== step.path && isWithin(step.path, s.path));
    if (needed(step, under, holdsBinds)) plan.push(step);
  }
  // Nothing is written where it would silently vanish: the sandbox's own root and the hidden folders' tmpfs are
  // read-only (a write there fails with EROFS); a granted `/` stays as granted.
  const readonly: MountStep[] = plan.filter((s) => s.kind === 'hide').map((s) => ({ kind: 'readonly', path: s.path }));
  if (!plan.some((s) => s.kind === 'bind' && s.path === path.sep)) readonly.push({ kind: 'readonly', path: path.sep });
  return [...plan, ...readonly];
}

export interface BwrapOptions {
  readonly network: boolean;
  /** The child's descriptor number for each folder opened beforehand (bound by descriptor, not by path). */
  readonly folderFds: ReadonlyMap<string, number>;
  /** The worker's working folder inside the sandbox. */
  readonly cwd: string;
}

/** bwrap's arguments up to and including `--`; the command and its arguments follow. */
export function bwrapArgs(plan: readonly MountStep[], options: BwrapOptions): string[] {
  const args: string[] = [];
  for (const step of plan) {
    switch (step.kind) {
      case 'bind': {
        const fd = step.origin === 'folder' ? options.folderFds.get(step.path) : undefined;
        const ro = step.access === 'read' ? 'ro-' : '';
        if (fd !== undefined) args.push(`--${ro}bind-fd`, String(fd), step.path);
        // A missing runtime or code path is skipped rather than failing the start (the asar's inner paths).
        else args.push(`--${ro}bind-try`, step.path, step.path);
        break;
      }
      case 'symlink':
        args.push('--symlink', step.target, step.path);
        break;
      case 'proc':
        args.push('--proc', step.path);
        break;
      case 'dev':
        args.push('--dev', step.path);
        break;
      case 'tmp':
      case 'hide':
        args.push('--tmpfs', step.path);
        break;
      case 'readonly':
        args.push('--remount-ro', step.path);
        break;
      default:
        return step satisfies never;
    }
  }
  args.push('--unshare-all');
  if (options.network) args.push('--share-net');
  args.push('--die-with-parent', '--new-session', '--chdir', options.cwd, '--');
  return args;
}
