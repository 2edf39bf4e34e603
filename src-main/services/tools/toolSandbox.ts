import { join } from 'node:path';
import type { EgressGuard } from '../../privacy/egressGuard.js';
import { ToolExecutor } from '../../tools/sandbox/toolExecutor.js';
import { appRoot } from '../../util/appPaths.js';
import type { DeviceBridge } from '../packs/deviceBridge.js';

export interface ToolSandboxDeps {
  readonly dataDir: string;
  /** Every connection a running tool opens asks it first. */
  readonly egress: EgressGuard;
  /** Where a connection the worker saw (and closed) is recorded, as the worker reported it. */
  readonly network: { recordToolConnection(tool: string, report: unknown): void };
  /** What only the shell can do for a tool: the clipboard, the default apps, notifications. */
  readonly device: DeviceBridge;
  /** The worker module; default the one beside the executor. */
  readonly workerPath?: string | undefined;
}

/**
 * The tool worker, started in the OS sandbox: it sees the granted folders and its own code (the app folder), never
 * the data folder (database, secret key) even inside a granted folder, and a running tool asks the Host before each
 * connection and for what only the shell can do.
 */
export function createToolSandbox(deps: ToolSandboxDeps): ToolExecutor {
  return new ToolExecutor({
    trashDir: join(deps.dataDir, 'trash'),
    codeRoots: [appRoot()],
    hiddenDirs: [deps.dataDir],
    ...(deps.workerPath ? { workerPath: deps.workerPath } : {}),
    services: async (request, call) => {
      if (request.kind === 'egress') {
        const ticket = deps.egress.check(request.url, request.feature, `tool ${call.tool} (${request.purpose})`);
        return { hostNamed: ticket.hostNamed };
      }
      if (request.kind === 'connection') {
        deps.network.recordToolConnection(call.tool, request);
        return null;
      }
      return deps.device.handle(request.request);
    },
  });
}
