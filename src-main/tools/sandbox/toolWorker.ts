/*
 * The tool worker: a child process that runs tool handlers, so a handler that
 * hangs, crashes or misbehaves cannot take the app (or its database) with it.
 * It decides nothing: the main process has validated and allowed every request.
 */
import { ToolError } from '../toolTypes.js';
import { FILE_TOOLS } from '../builtin/files/index.js';
import { applyUndo } from '../builtin/files/undo.js';
import { MAX_OUTPUT_BYTES, type WorkerRequest, type WorkerResponse } from './workerProtocol.js';

const tools = new Map(FILE_TOOLS.map((tool) => [tool.name, tool]));
const running = new Map<string, AbortController>();

function reply(message: WorkerResponse): void {
  process.send?.(message);
}

async function handle(request: Exclude<WorkerRequest, { type: 'cancel' }>): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  const context = { roots: request.roots, trashDir: request.trashDir, signal: controller.signal };
  try {
    let outcome;
    if (request.type === 'run') {
      const tool = tools.get(request.tool);
      if (!tool) throw new ToolError('INVALID_PATH', `The tool worker has no tool named ${request.tool}.`);
      outcome = await tool.run(request.args, context);
    } else {
      outcome = await applyUndo(request.record, context);
    }
    const size = Buffer.byteLength(JSON.stringify(outcome));
    if (size > MAX_OUTPUT_BYTES) {
      throw new ToolError(
        'TOO_LARGE',
        `The result is ${size} bytes, more than the ${MAX_OUTPUT_BYTES} a tool may return.`,
      );
    }
    reply({ type: 'result', id: request.id, ok: true, outcome });
  } catch (error) {
    const code = error instanceof ToolError ? error.code : 'IO_ERROR';
    const message = error instanceof Error ? error.message : String(error);
    reply({ type: 'result', id: request.id, ok: false, error: { code, message } });
  } finally {
    running.delete(request.id);
  }
}

process.on('message', (message: WorkerRequest) => {
  if (message.type === 'cancel') running.get(message.id)?.abort();
  else void handle(message);
});
// The parent going away ends the worker; it never outlives the app.
process.on('disconnect', () => process.exit(0));
