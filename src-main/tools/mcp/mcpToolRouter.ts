import type { RunOptions, ToolRunner } from '../sandbox/toolExecutor.js';
import type { JsonValue, ToolOutcome, UndoRecord } from '../toolTypes.js';
import type { McpManager } from './mcpManager.js';

/**
 * The runner the broker uses: built-in tools go to the sandboxed worker, MCP tools to their server (a process of
 * its own, so it needs no worker). Both arrive here only after the broker checked and allowed the call.
 */
export function routeToolRunner(worker: ToolRunner, mcp: Pick<McpManager, 'owns' | 'call'>): ToolRunner {
  return {
    get trashDir() {
      return worker.trashDir;
    },
    run(tool: string, args: Record<string, JsonValue>, options: RunOptions): Promise<ToolOutcome> {
      return mcp.owns(tool) ? mcp.call(tool, args, options.signal) : worker.run(tool, args, options);
    },
    // MCP calls return no undo record; every undo is a built-in one.
    undo: (record: UndoRecord, options: RunOptions) => worker.undo(record, options),
    dispose: () => worker.dispose(),
  };
}
