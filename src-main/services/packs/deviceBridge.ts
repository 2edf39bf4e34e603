import type { DeviceAnswer, HostEvent } from '../../../src-shared/contract/index.js';
import { ToolError, type DeviceRequest, type JsonValue } from '../../tools/toolTypes.js';

/**
 * What the app shell does for the device tools: the desktop app through Electron's clipboard, shell and
 * notifications; browser mode through the page. The Host hands each request to the bridge of the shell it runs in.
 */
export interface DeviceBridge {
  handle(request: DeviceRequest): Promise<JsonValue>;
  /** Browser mode: the Host's event stream, through which requests are sent to the page. */
  connect?(emit: (event: HostEvent) => void): void;
  /** Browser mode: the page's answer to a request it was sent; false when no request waits for it. */
  answer?(answer: DeviceAnswer): boolean;
  /** Calls `listener` whenever the bridge can newly do things (a page connected), so waiting work is retried. */
  onAvailable?(listener: () => void): () => void;
}

/** A Host with no shell attached (the CLI, most tests): every device request fails clearly. */
export const noDevice: DeviceBridge = {
  handle: (request) =>
    Promise.reject(
      new ToolError(
        'UNAVAILABLE',
        `This Homebody has no window to ${request.kind.replace('-', ' ')} with; use the app.`,
      ),
    ),
};
