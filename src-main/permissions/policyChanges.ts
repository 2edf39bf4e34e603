import type { Policy, PolicyMode } from '../../src-shared/contract/index.js';

/** One difference between two policies, as the audit log records it. */
export type PolicyChange =
  | { readonly kind: 'folder-granted'; readonly path: string; readonly untrusted: boolean }
  | { readonly kind: 'folder-regranted'; readonly path: string; readonly untrusted: boolean }
  | { readonly kind: 'folder-removed'; readonly path: string }
  | { readonly kind: 'folder-trust'; readonly path: string; readonly untrusted: boolean }
  | {
      readonly kind: 'tool-mode';
      readonly tool: string;
      /** null: the default for the tool's risk (as no mode was set). */
      readonly from: PolicyMode | null;
      readonly to: PolicyMode | null;
    };

/** What changed from `before` to `after`: folders granted, granted again (a new identity), removed or re-marked, and each tool's mode. */
export function policyChanges(before: Policy, after: Policy): PolicyChange[] {
  const changes: PolicyChange[] = [];
  const old = new Map(before.folders.map((f) => [f.path, f]));
  const next = new Map(after.folders.map((f) => [f.path, f]));
  for (const [path, folder] of next) {
    const was = old.get(path);
    if (!was) changes.push({ kind: 'folder-granted', path, untrusted: folder.untrusted });
    else {
      if (was.untrusted !== folder.untrusted) changes.push({ kind: 'folder-trust', path, untrusted: folder.untrusted });
      const sameIdentity = was.identity?.dev === folder.identity?.dev && was.identity?.ino === folder.identity?.ino;
      if (!sameIdentity && was.identity) changes.push({ kind: 'folder-regranted', path, untrusted: folder.untrusted });
    }
  }
  for (const path of old.keys()) if (!next.has(path)) changes.push({ kind: 'folder-removed', path });
  const tools = new Set([...Object.keys(before.tools), ...Object.keys(after.tools)]);
  for (const tool of [...tools].sort()) {
    const from = before.tools[tool] ?? null;
    const to = after.tools[tool] ?? null;
    if (from !== to) changes.push({ kind: 'tool-mode', tool, from, to });
  }
  return changes;
}

function modeWords(mode: PolicyMode | null): string {
  return mode ?? 'the default';
}

/** The changes in one line for the audit log: "Granted /home/u/Docs; read_text: ask → auto". */
export function describeChanges(changes: readonly PolicyChange[]): string {
  if (changes.length === 0) return 'The policy was saved unchanged';
  const parts = changes.map((c) => {
    switch (c.kind) {
      case 'folder-granted':
        return `Granted the folder ${c.path}${c.untrusted ? ' (untrusted content)' : ''}`;
      case 'folder-regranted':
        return `Granted the folder ${c.path} again (it had changed)`;
      case 'folder-removed':
        return `Removed the folder ${c.path}`;
      case 'folder-trust':
        return `Marked ${c.path} as ${c.untrusted ? 'holding untrusted content' : 'trusted'}`;
      case 'tool-mode':
        return `${c.tool}: ${modeWords(c.from)} → ${modeWords(c.to)}`;
      default:
        return c satisfies never;
    }
  });
  return parts.join('; ');
}
