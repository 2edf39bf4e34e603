import path from 'node:path';
import type { FolderIdentity } from '../toolTypes.js';

/**
 * What the tool worker may see, whatever OS sandbox enforces it: one pure description per worker, built from the
 * grants, the packs' folders and the app's own folders. The OS-specific builders (bwrapArgs.ts, seatbeltProfile.ts)
 * turn it into mounts or a profile.
 *
 * Two profiles: `files` runs every tool that stays on this machine (granted folders, packs, trash; no network);
 * `network` runs the tools that declare `needsNetwork` (web, mail): the network, the mail folders, no granted folder.
 */
export type SandboxProfile = 'files' | 'network';

/** A folder the worker sees at its own path; `identity`, when known, is the folder it must be. */
export interface SandboxFolder {
  readonly path: string;
  readonly identity?: FolderIdentity;
}

export interface SandboxSpec {
  readonly profile: SandboxProfile;
  /** The worker's own code and the runtime it runs on: read-only, files or folders, skipped where missing. */
  readonly code: readonly string[];
  /** System files and folders besides the runtime (sysfs for device_status, DNS for the network): read-only. */
  readonly system: readonly string[];
  /** The user's and the packs' folders the worker only reads. */
  readonly read: readonly SandboxFolder[];
  /** The granted folders, the packs' folders and the trash: read and write. */
  readonly write: readonly SandboxFolder[];
  /**
   * Folders the worker never sees (Homebody's data folder: the database, the secret key), even inside a granted
   * folder; only the `read` and `write` folders inside them are shown again.
   */
  readonly hidden: readonly string[];
  readonly network: boolean;
}

/** What the executor knows when it starts a worker; every path absolute (the grants already real paths). */
export interface SandboxInputs {
  readonly roots: readonly SandboxFolder[];
  /** The packs' folders (packFolders() in toolExecutor.ts) and the trash. */
  readonly packs: { readonly read: readonly string[]; readonly write: readonly string[] };
  /** The mail pack's folders alone: drafts and sent copies (write) and a local mail source (read). */
  readonly mail: { readonly read: readonly string[]; readonly write: readonly string[] };
  readonly trashDir: string;
  readonly code: readonly string[];
  /** sysfs folders device_status reads (files profile only). */
  readonly sysfs: readonly string[];
  readonly hidden: readonly string[];
}

/** Files a process needs to resolve names and check certificates; bound read-only in the network profile only. */
export const NETWORK_SYSTEM_FILES: readonly string[] = [
  '/etc/resolv.conf',
  '/etc/hosts',
  '/etc/nsswitch.conf',
  '/etc/host.conf',
  '/etc/gai.conf',
  // The CA certificates (Debian, Fedora); never /etc/ssl itself, whose private/ holds the machine's keys.
  '/etc/ssl/certs',
  '/etc/ca-certificates',
  '/etc/pki/tls/certs',
  '/etc/pki/ca-trust/extracted',
];

/** `child` is `parent` itself or inside it (both absolute and normalised). */
export function isWithin(parent: string, child: string): boolean {
  if (parent === child) return true;
  const prefix = parent.endsWith(path.sep) ? parent : parent + path.sep;
  return child.startsWith(prefix);
}

function unique(folders: readonly SandboxFolder[]): SandboxFolder[] {
  const seen = new Map<string, SandboxFolder>();
  for (const folder of folders) {
    const normal = path.resolve(folder.path);
    // The same folder twice (granted, and a pack's): keep the identity either one has.
    const identity = seen.get(normal)?.identity ?? folder.identity;
    seen.set(normal, identity ? { path: normal, identity } : { path: normal });
  }
  return [...seen.values()];
}

const plain = (paths: readonly string[]): SandboxFolder[] => paths.map((p) => ({ path: p }));

/**
 * The worker's view for one profile. A granted folder inside a hidden one (the user granted a subfolder of the data
 * folder) is left out unless it lies in a pack's folder or the trash, which the worker sees anyway: granting
 * something is never a way to show the database or the key file to the tools.
 */
export function sandboxSpec(profile: SandboxProfile, inputs: SandboxInputs): SandboxSpec {
  const hidden = [...new Set(inputs.hidden.map((h) => path.resolve(h)))];
  switch (profile) {
    case 'files': {
      const own = [...inputs.packs.write, inputs.trashDir].map((p) => path.resolve(p));
      const roots = inputs.roots.filter((root) => {
        const normal = path.resolve(root.path);
        const inHidden = hidden.some((h) => isWithin(h, normal));
        return !inHidden || own.some((o) => isWithin(o, normal));
      });
      const write = unique([...roots, ...plain(inputs.packs.write), { path: inputs.trashDir }]);
      const writable = new Set(write.map((f) => f.path));
      return {
        profile,
        code: [...new Set(inputs.code)],
        system: [...new Set(inputs.sysfs)],
        read: unique(plain(inputs.packs.read)).filter((f) => !writable.has(f.path)),
        write,
        hidden,
        network: false,
      };
    }
    case 'network': {
      const write = unique(plain(inputs.mail.write));
      const writable = new Set(write.map((f) => f.path));
      return {
        profile,
        code: [...new Set(inputs.code)],
        system: [...NETWORK_SYSTEM_FILES],
        read: unique(plain(inputs.mail.read)).filter((f) => !writable.has(f.path)),
        write,
        hidden,
        network: true,
      };
    }
    default:
      return profile satisfies never;
  }
}
