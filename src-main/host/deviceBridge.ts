import { ToolError, type DeviceRequest, type JsonValue } from '../tools/toolTypes.js';

/**
 * What the app shell does for the device tools: the desktop app through Electron's clipboard, shell and
 * notifications; browser mode through the page. The Host hands each request to the bridge of the shell it runs in.
 */
export interface DeviceBridge {
  handle(request: DeviceRequest): Promise<JsonValue>;
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
