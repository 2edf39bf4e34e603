import type { GrantedRoot, JsonValue, ToolOutcome, UndoRecord } from '../toolTypes.js';

/** What the main process sends the tool worker. Arguments were validated and allowed before they got here. */
export type WorkerRequest =
  | {
      readonly type: 'run';
      readonly id: string;
      readonly tool: string;
      readonly args: Record<string, JsonValue>;
      readonly roots: readonly GrantedRoot[];
      readonly trashDir: string;
    }
  | {
      readonly type: 'undo';
      readonly id: string;
      readonly record: UndoRecord;
      readonly roots: readonly GrantedRoot[];
      readonly trashDir: string;
    }
  | { readonly type: 'cancel'; readonly id: string };

export type WorkerResponse =
  | { readonly type: 'result'; readonly id: string; readonly ok: true; readonly outcome: ToolOutcome }
  | {
      readonly type: 'result';
      readonly id: string;
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string };
    };

/** A tool's result larger than this is refused rather than handed to the model (or the IPC channel). */
export const MAX_OUTPUT_BYTES = 512 * 1024;
