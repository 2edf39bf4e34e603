/*
 * The tool worker: a child process that runs tool handlers, so a handler that
 * hangs, crashes or misbehaves cannot take the app (or its database) with it.
 * It decides nothing: the main process has validated and allowed every request.
 */
import { ToolError, type JsonValue, type ToolContext, type ToolServices } from '../toolTypes.js';
import { BUILTIN_TOOLS } from '../builtin/index.js';
import { applyUndo } from '../builtin/files/undo.js';
import { WorkerConnections } from './workerConnections.js';
import { MAX_OUTPUT_BYTES, type ServiceRequest, type WorkerRequest, type WorkerResponse } from './workerProtocol.js';

const tools = new Map(BUILTIN_TOOLS.map((tool) => [tool.name, tool]));
const running = new Map<string, AbortController>();
const services = new Map<string, { resolve(value: JsonValue): void; reject(error: Error): void }>();
let nextServiceId = 0;

function reply(message: WorkerResponse): void {
  process.send?.(message);
}

// Every socket a tool opens is checked against what the guard allowed for its call; others are closed and reported.
const connections = new WorkerConnections((id, report) => {
  reply({ type: 'service', id, serviceId: `c${++nextServiceId}`, request: report });
});
connections.start();

/** Asks the main process for a service on behalf of call `id`, and waits for its answer. */
function askHost(id: string, request: ServiceRequest): Promise<JsonValue> {
  const serviceId = String(++nextServiceId);
  return new Promise((resolve, reject) => {
    services.set(serviceId, { resolve, reject });
    reply({ type: 'service', id, serviceId, request });
  });
}

function servicesFor(id: string): ToolServices {
  return {
    egress: async (url, feature, purpose) => {
      const answer = await askHost(id, { kind: 'egress', url, feature, purpose });
      connections.grant(id, url);
      const hostNamed = typeof answer === 'object' && answer !== null && !Array.isArray(answer) && answer.hostNamed;
      return { hostNamed: hostNamed === true };
    },
    device: (request) => askHost(id, { kind: 'device', request }),
  };
}

function answered(message: Extract<WorkerRequest, { type: 'service-result' }>): void {
  const waiter = services.get(message.serviceId);
  services.delete(message.serviceId);
  if (!waiter) return;
  if (message.ok) waiter.resolve(message.value ?? null);
  else {
    const code = (message.error?.code ?? 'IO_ERROR') as ToolError['code'];
    waiter.reject(new ToolError(code, message.error?.message ?? 'The app refused the request.'));
  }
}

async function handle(request: Extract<WorkerRequest, { type: 'run' | 'undo' }>): Promise<void> {
  const controller = new AbortController();
  running.set(request.id, controller);
  const context: ToolContext = {
    roots: request.roots,
    trashDir: request.trashDir,
    hidden: request.hidden,
    signal: controller.signal,
    packs: request.packs,
    services: servicesFor(request.id),
  };
  try {
    let outcome;
    if (request.type === 'run') {
      const tool = tools.get(request.tool);
      if (!tool) throw new ToolError('INVALID_INPUT', `The tool worker has no tool named ${request.tool}.`);
      outcome = await connections.run(request.id, () => tool.run(request.args, context));
    } else {
      outcome = await connections.run(request.id, () => applyUndo(request.record, context));
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
  else if (message.type === 'service-result') answered(message);
  else void handle(message);
});
// The parent going away ends the worker; it never outlives the app.
process.on('disconnect', () => process.exit(0));
