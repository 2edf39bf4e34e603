/**
 * What a tool is. The main process reads a tool's metadata and `describe()`
 * to decide and to ask; only the sandboxed tool worker ever calls `run()` or
 * `undo()`, on arguments the main process has already validated and allowed.
 */

/** The risk class decides what is asked, never the model (DESIGN.md, Actions, risk and decisions). */
export type Risk = 'read' | 'write' | 'irreversible';

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A JSON Schema object (draft 2020-12 subset), as offered to the model and validated against. */
export type JsonSchema = { [key: string]: JsonValue };

/** A folder the user granted; `path` is already a realpath. */
export interface GrantedRoot {
  readonly path: string;
  /** Content from here did not come from the user (e.g. Downloads): reading it taints the task. */
  readonly untrusted: boolean;
}

export interface ToolContext {
  readonly roots: readonly GrantedRoot[];
  /** Where trashed files go, so that they can come back (inside the app's data folder). */
  readonly trashDir: string;
  readonly signal: AbortSignal;
}

/** What the permission prompt shows: a title, a sentence in plain words, and the exact values. */
export interface ToolDescription {
  readonly title: string;
  readonly summary: string;
  readonly details: ReadonlyArray<{ readonly label: string; readonly value: string }>;
}

/** How to reverse a write; stored in the undo journal and replayed by the worker. */
export type UndoRecord =
  | { readonly kind: 'move-back'; readonly from: string; readonly to: string }
  | { readonly kind: 'restore-file'; readonly path: string; readonly backup: string }
  | { readonly kind: 'remove-created'; readonly path: string }
  | { readonly kind: 'untrash'; readonly trashed: string; readonly original: string };

export interface ToolOutcome {
  /** What the model is told; keep it short and factual. */
  readonly result: JsonValue;
  readonly undo?: UndoRecord;
  /** Set when the tool read content that did not come from the user; names it for later prompts. */
  readonly untrustedSource?: string;
}

export interface ToolDefinition<Args = Record<string, unknown>> {
  readonly name: string;
  readonly description: string;
  readonly parameters: JsonSchema;
  readonly risk: Risk;
  describe(args: Args): ToolDescription;
  run(args: Args, context: ToolContext): Promise<ToolOutcome>;
}

/** A refusal or failure a tool reports to the model as a clear sentence (not a crash). */
export class ToolError extends Error {
  constructor(
    readonly code:
      | 'OUTSIDE_GRANTED_FOLDERS'
      | 'NOT_FOUND'
      | 'ALREADY_EXISTS'
      | 'NOT_A_FILE'
      | 'NOT_A_FOLDER'
      | 'TOO_LARGE'
      | 'INVALID_PATH'
      | 'IO_ERROR',
    message: string,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
