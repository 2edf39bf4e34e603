import type { SandboxSpec } from './sandboxSpec.js';

/**
 * The macOS Seatbelt profile (`sandbox-exec -p PROFILE`) for a SandboxSpec: deny by default, read the runtime and
 * the worker's code, read and write the granted folders, the packs' folders, the trash and a private temporary
 * folder, deny Homebody's data folder even inside a granted one (later rules win in SBPL), then allow the packs'
 * folders and the trash inside it again. The network only in the network profile.
 *
 * It cannot be run on the machines this project is tested on (Linux): only the generated text is tested.
 */

/** What macOS itself needs read for a Node or Electron process to start, besides the binary's own folder. */
export const MACOS_SYSTEM_READ: readonly string[] = [
  '/System',
  '/usr/lib',
  '/usr/share',
  '/Library/Apple/System',
  '/private/var/db/dyld',
  '/private/var/db/timezone',
  '/private/etc/localtime',
];

/** Mach services a Node process asks for: user lookups, time zone and notification of settings, logging. */
const BASE_MACH_SERVICES = [
  'com.apple.system.opendirectoryd.libinfo',
  'com.apple.system.notification_center',
  'com.apple.system.logger',
];
/** The resolver and network configuration: the network profile only. */
const NETWORK_MACH_SERVICES = ['com.apple.dnssd.service', 'com.apple.SystemConfiguration.configd'];

/** An SBPL string literal: quotes and backslashes escaped, control characters refused (no path holds one). */
export function sbplString(value: string): string {
  if ([...value].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f)) {
    throw new Error(
      `The path ${JSON.stringify(value)} holds a control character; no sandbox profile is written for it.`,
    );
  }
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const subpaths = (paths: readonly string[]) => paths.map((p) => `(subpath ${sbplString(p)})`).join(' ');

export interface SeatbeltInputs {
  /** The Node or Electron binary (the only program the worker may run). */
  readonly execPath: string;
  /** Where the runtime keeps its libraries and resources (the .app's Contents, a Node installation's prefix). */
  readonly runtimeDirs: readonly string[];
  /** The private temporary folder the worker is given as TMPDIR. */
  readonly tmpDir: string;
  /** Folders macOS itself needs; MACOS_SYSTEM_READ unless a test says otherwise. */
  readonly systemRead?: readonly string[];
}

export function seatbeltProfile(spec: SandboxSpec, inputs: SeatbeltInputs): string {
  const read = [
    ...(inputs.systemRead ?? MACOS_SYSTEM_READ),
    ...inputs.runtimeDirs,
    ...spec.code,
    ...spec.system,
    ...spec.read.map((f) => f.path),
  ];
  const write = [...spec.write.map((f) => f.path), inputs.tmpDir];
  const mach = [...BASE_MACH_SERVICES, ...(spec.network ? NETWORK_MACH_SERVICES : [])];
  const insideHidden = (p: string) => spec.hidden.some((h) => p === h || p.startsWith(`${h}/`));
  const lines = [
    '(version 1)',
    '(deny default)',
    `(allow process-exec (literal ${sbplString(inputs.execPath)}))`,
    '(allow process-fork)',
    '(allow signal (target self))',
    '(allow sysctl-read)',
    // Resolving a path stats every folder above it; names and sizes, never contents.
    '(allow file-read-metadata)',
    `(allow mach-lookup ${mach.map((name) => `(global-name ${sbplString(name)})`).join(' ')})`,
    '(allow file-read* file-write-data (literal "/dev/null") (literal "/dev/zero"))',
    '(allow file-read* (literal "/dev/random") (literal "/dev/urandom"))',
    `(allow file-read* ${subpaths(read)})`,
    `(allow file-read* file-write* ${subpaths(write)})`,
  ];
  if (spec.hidden.length > 0) {
    lines.push(`(deny file-read* file-write* ${subpaths(spec.hidden)})`);
    const readBack = spec.read.map((f) => f.path).filter(insideHidden);
    const writeBack = spec.write.map((f) => f.path).filter(insideHidden);
    if (readBack.length > 0) lines.push(`(allow file-read* ${subpaths(readBack)})`);
    if (writeBack.length > 0) lines.push(`(allow file-read* file-write* ${subpaths(writeBack)})`);
  }
  if (spec.network) lines.push('(allow network-outbound)', '(allow system-socket)');
  return `${lines.join('\n')}\n`;
}
