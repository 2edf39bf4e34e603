import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { DeviceBridge } from '../services/packs/deviceBridge.js';
import { externalUrlOrThrow, looksLikeUrl } from '../tools/builtin/device/externalUrl.js';
import { refuseProgram } from '../tools/builtin/device/openTarget.js';
import { ToolError, type DeviceRequest, type JsonValue } from '../tools/toolTypes.js';

/** The parts of Electron the desktop bridge uses (main.ts passes Electron's own; tests pass fakes). */
export interface DesktopShell {
  readonly clipboard: { readText(): string; writeText(text: string): void };
  readonly shell: { openExternal(url: string): Promise<void>; openPath(path: string): Promise<string> };
  /** Shows a system notification; false where the system has none. */
  notify(title: string, body: string): boolean;
}

/**
 * A file or folder the tool already resolved (realpath, inside the granted or the packs' folders, not a program).
 * Checked again here, the last step before the OS acts, without the folders (the request does not carry them): an
 * absolute path that is its own realpath (a link put in its place since the tool's check is refused), and no program.
 */
async function checkedPath(target: string): Promise<string> {
  if (!path.isAbsolute(target) || target.includes('\0')) {
    throw new ToolError('INVALID_INPUT', 'Homebody opens only http and https addresses and files given by full path.');
  }
  let real: string;
  try {
    real = await realpath(target);
  } catch {
    throw new ToolError('NOT_FOUND', `${target} does not exist.`);
  }
  if (real !== path.normalize(target)) {
    throw new ToolError('INVALID_PATH', `${target} leads elsewhere (${real}) since it was checked; it was not opened.`);
  }
  await refuseProgram(real);
  return real;
}

/**
 * The desktop app's device bridge, in Electron's main process. The tool already checked the target and the user
 * allowed it (device_open always asks); this checks again, as the last step before the OS acts: an http(s) URL by
 * externalUrl.ts's rule, or a resolved path (checkedPath).
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
          if (looksLikeUrl(request.target)) {
            await desktop.shell.openExternal(externalUrlOrThrow(request.target));
            return { done: true };
          }
          const file = await checkedPath(request.target);
          // openPath answers an error message, or '' when the file opened.
          const problem = await desktop.shell.openPath(file);
          if (problem) throw new ToolError('UNAVAILABLE', `Could not open ${file}: ${problem}`);
          return { done: true };
        }
        default:
          return request satisfies never;
      }
    },
  };
}
