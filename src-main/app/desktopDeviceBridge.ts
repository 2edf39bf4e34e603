import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { DeviceBridge } from '../host/deviceBridge.js';
import { ToolError, type DeviceRequest, type JsonValue } from '../tools/toolTypes.js';

/** The parts of Electron the desktop bridge uses (main.ts passes Electron's own; tests pass fakes). */
export interface DesktopShell {
  readonly clipboard: { readText(): string; writeText(text: string): void };
  readonly shell: { openExternal(url: string): Promise<void>; openPath(path: string): Promise<string> };
  /** Shows a system notification; false where the system has none. */
  notify(title: string, body: string): boolean;
}

/** Only web and mail addresses leave through the default browser or mail app; nothing else is handed to the OS. */
function externalUrl(target: string): string | undefined {
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return undefined;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined;
}

/**
 * The desktop app's device bridge, in Electron's main process. The tool already checked the target; this checks
 * again, as the last step before the OS acts: an http(s) or mailto URL, or an absolute path to something that exists.
 */
export function createDesktopDeviceBridge(desktop: DesktopShell): DeviceBridge {
  return {
    async handle(request: DeviceRequest): Promise<JsonValue> {
      switch (request.kind) {
        case 'clipboard-read':
          return { text: desktop.clipboard.readText() };
        case 'clipboard-write':
          desktop.clipboard.writeText(request.text);
          return { done: true };
        case 'notify':
          return desktop.notify(request.title, request.body)
            ? { done: true, shown: 'system' }
            : { done: false, note: 'This system shows no notifications.' };
        case 'open': {
          const url = externalUrl(request.target);
          if (url) {
            await desktop.shell.openExternal(url);
            return { done: true };
          }
          if (/^[a-z][a-z0-9+.-]+:/i.test(request.target) || !path.isAbsolute(request.target)) {
            throw new ToolError('INVALID_INPUT', `Homebody opens only http, https and mailto addresses and files.`);
          }
          try {
            await stat(request.target);
          } catch {
            throw new ToolError('NOT_FOUND', `${request.target} does not exist.`);
          }
          // openPath answers an error message, or '' when the file opened.
          const problem = await desktop.shell.openPath(request.target);
          if (problem) throw new ToolError('UNAVAILABLE', `Could not open ${request.target}: ${problem}`);
          return { done: true };
        }
        default:
          return request satisfies never;
      }
    },
  };
}
