import type { EgressFeature } from '../../../src-shared/contract/index.js';
import type { ConnectionReport } from './workerConnections.js';
import type { DeviceRequest, GrantedRoot, JsonValue, PackConfig, ToolOutcome, UndoRecord } from '../toolTypes.js';

/** What the main process sends the tool worker. Arguments were validated and allowed before they got here. */
export type WorkerRequest =
  | {
      readonly type: 'run';
      readonly id: string;
      readonly tool: string;
      readonly args: Record<string, JsonValue>;
      readonly roots: readonly GrantedRoot[];
      readonly trashDir: string;
      readonly packs: PackConfig;
      /** Folders no tool walks into (Homebody's data folder), whatever a grant covers. */
      readonly hidden: readonly string[];
    }
  | {
      readonly type: 'undo';
      readonly id: string;
      readonly record: UndoRecord;
      readonly roots: readonly GrantedRoot[];
      readonly trashDir: string;
      readonly packs: PackConfig;
      readonly hidden: readonly string[];
    }
  | { readonly type: 'cancel'; readonly id: string }
  /** The answer to a service request the worker made during a call. */
  | {
      readonly type: 'service-result';
      readonly serviceId: string;
      readonly ok: boolean;
      readonly value?: JsonValue;
      readonly error?: { readonly code: string; readonly message: string };
    };

/**
 * What a running call asks of the main process (see ToolServices), or tells it: `connection` reports a socket the
 * worker's watcher closed because the guard had not allowed it for the call (its answer is not waited for).
 */
export type ServiceRequest =
  | { readonly kind: 'egress'; readonly url: string; readonly feature: EgressFeature; readonly purpose: string }
  | { readonly kind: 'device'; readonly request: DeviceRequest }
  | ConnectionReport;

export type WorkerResponse =
  | {
      readonly type: 'service';
      /** The call this request belongs to. */
      readonly id: string;
      readonly serviceId: string;
      readonly request: ServiceRequest;
    }
  | { readonly type: 'result'; readonly id: string; readonly ok: true; readonly outcome: ToolOutcome }
  | {
      readonly type: 'result';
      readonly id: string;
      readonly ok: false;
      readonly error: { readonly code: string; readonly message: string };
    };

/** A tool's result larger than this is refused rather than handed to the model (or the IPC channel). */
export const MAX_OUTPUT_BYTES = 512 * 1024;
