import type {
  CallPath,
  ProvenanceDeclaration,
  ProvenanceKey,
  ResultField,
  UntrustedOutputDeclaration,
} from '../../src-shared/contract/index.js';

/**
 * Declared taint, applied in one place. A tool says which of its outputs were written by someone other than the
 * user (UntrustedOutputDeclaration) and which files or pack items it read and wrote (ProvenanceDeclaration); these
 * pure functions turn a call's result into the untrusted sources it carries and the labels it moves. The handler
 * in the worker decides none of it.
 */

/** The values at a dotted result field, `[]` stepping into each element of an array: `events[].description`. */
export function valuesAt(value: unknown, field: ResultField): unknown[] {
  let current: unknown[] = [value];
  for (const part of field.split('.')) {
    const many = part.endsWith('[]');
    const name = many ? part.slice(0, -2) : part;
    const next: unknown[] = [];
    for (const item of current) {
      if (typeof item !== 'object' || item === null || Array.isArray(item)) continue;
      if (!Object.prototype.hasOwnProperty.call(item, name)) continue;
      const child = (item as Record<string, unknown>)[name];
      if (many) {
        if (Array.isArray(child)) next.push(...(child as unknown[]));
      } else next.push(child);
    }
    current = next;
  }
  return current;
}

function present(value: unknown): boolean {
  if (value === null || value === undefined || value === false) return false;
  if (typeof value === 'string') return value.trim() !== '';
  if (Array.isArray(value)) return value.some(present);
  if (typeof value === 'object') return Object.values(value as Record<string, unknown>).some(present);
  return true;
}

function shortText(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 79)}…` : flat;
}

/**
 * The untrusted source a result carries under its tool's declaration, named for prompts, or undefined when the
 * result holds none of the declared content (a calendar listing whose events have no description or organizer).
 */
export function declaredSource(
  declaration: UntrustedOutputDeclaration | undefined,
  result: unknown,
): string | undefined {
  if (!declaration) return undefined;
  const carries =
    declaration.always === true || (declaration.fields ?? []).some((f) => valuesAt(result, f).some(present));
  if (!carries) return undefined;
  const from = declaration.from ? [...new Set(valuesAt(result, declaration.from).filter(present).map(shortText))] : [];
  if (from.length === 0) return declaration.what;
  const named = from.slice(0, 3).join(', ') + (from.length > 3 ? ` and ${from.length - 3} more` : '');
  return `${declaration.what} from ${named}`;
}

/** One provenance key's values in a result: `file:/home/u/Docs/a.txt`, `note:groceries.md`. */
export function keysAt(result: unknown, key: ProvenanceKey): string[] {
  return valuesAt(result, key.field)
    .filter((v): v is string => typeof v === 'string' && v !== '')
    .map((v) => `${key.prefix}${v}`);
}

export interface ProvenanceOfCall {
  /** What the result's content came from. */
  readonly reads: readonly string[];
  /** What the call wrote, and what each was copied or moved from. */
  readonly writes: ReadonlyArray<{ readonly key: string; readonly from: string | null; readonly moved: boolean }>;
}

export function provenanceOf(declaration: ProvenanceDeclaration | undefined, result: unknown): ProvenanceOfCall {
  if (!declaration) return { reads: [], writes: [] };
  const reads = (declaration.reads ?? []).flatMap((k) => keysAt(result, k));
  const writes = (declaration.writes ?? []).flatMap((w) => {
    const from = w.from ? (keysAt(result, w.from)[0] ?? null) : null;
    return keysAt(result, w.key).map((key) => ({ key, from, moved: w.moved === true }));
  });
  return { reads, writes };
}

/**
 * The keys under which a label on `key` or on a folder holding it is kept: a folder copied from an untrusted place
 * labels everything below it. Only file keys have folders.
 */
export function labelKeysFor(key: string, separator = '/'): string[] {
  if (!key.startsWith('file:')) return [key];
  const path = key.slice('file:'.length);
  const keys = [key];
  let end = path.lastIndexOf(separator);
  while (end > 0) {
    keys.push(`file:${path.slice(0, end)}`);
    end = path.lastIndexOf(separator, end - 1);
  }
  if (path.startsWith(separator) && path !== separator) keys.push(`file:${separator}`);
  return [...new Set(keys)];
}

/** A file's untrusted source (its path) when it lies in a granted folder the user marked untrusted (Downloads). */
export function untrustedFolderSource(
  path: string,
  roots: ReadonlyArray<{ readonly path: string; readonly untrusted: boolean }>,
  separator = '/',
): string | undefined {
  let best: { path: string; untrusted: boolean } | undefined;
  for (const root of roots) {
    const inside =
      path === root.path || path.startsWith(root.path.endsWith(separator) ? root.path : root.path + separator);
    if (inside && (best === undefined || root.path.length > best.path.length)) best = root;
  }
  return best?.untrusted ? path : undefined;
}

/** The paths a call was given to read, as file keys: its resolved `existing` and `entry` arguments. */
export function readPathKeys(paths: readonly CallPath[]): string[] {
  return paths.filter((p) => p.role === 'existing').map((p) => `file:${p.path}`);
}

/** A tool as taint reads it: its declarations only. */
export interface TaintManifest {
  readonly untrustedOutput?: UntrustedOutputDeclaration;
  readonly provenance?: ProvenanceDeclaration;
}

/**
 * Every untrusted source a call's result carries: the tool's declaration, files it read from a folder the user
 * marked untrusted, and content labelled by an earlier task (`labelsOf` gives the labels of an item and the
 * folders holding it). `extraReads` are keys the caller knows were read (the call's resolved path arguments);
 * `named` is the name the runner gave the content (a handler's `untrustedSource`, an MCP server's result); it
 * names a declared source, and adds one where the tool declares none (it can only add taint, never remove it).
 */
export function sourcesInResult(
  tool: TaintManifest | undefined,
  result: unknown,
  options: {
    readonly roots: ReadonlyArray<{ readonly path: string; readonly untrusted: boolean }>;
    readonly labelsOf?: (keys: string[]) => string[];
    readonly extraReads?: readonly string[];
    readonly named?: string;
  },
): string[] {
  const sources = new Set<string>();
  // The declaration decides whether the result carries others' content; the runner's name for it, if it gave one,
  // is the more precise ("mail from eve@example.com" rather than "mail").
  const declared = declaredSource(tool?.untrustedOutput, result);
  if (declared) sources.add(options.named ?? declared);
  else if (options.named) sources.add(options.named);
  const reads = new Set([...(options.extraReads ?? []), ...provenanceOf(tool?.provenance, result).reads]);
  for (const key of reads) for (const source of labelSources(key, options)) sources.add(source);
  return [...sources];
}

/** The sources a key carries: its folder's, if untrusted, and the labels on it or on a folder holding it. */
export function labelSources(
  key: string,
  options: {
    readonly roots: ReadonlyArray<{ readonly path: string; readonly untrusted: boolean }>;
    readonly labelsOf?: (keys: string[]) => string[];
  },
): string[] {
  const folder = key.startsWith('file:') ? untrustedFolderSource(key.slice('file:'.length), options.roots) : undefined;
  const labelled = options.labelsOf?.(labelKeysFor(key)) ?? [];
  return folder ? [folder, ...labelled] : labelled;
}
