import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { clipboardRead, clipboardWrite } from './clipboard.js';
import { deviceNotify } from './deviceNotify.js';
import { deviceOpen } from './deviceOpen.js';
import { deviceStatus } from './deviceStatus.js';

/** The clipboard, opening files and addresses, notifications (all through the app shell) and the computer's state. */
export const DEVICE_TOOLS: BuiltinToolDefinition[] = [
  clipboardRead,
  clipboardWrite,
  deviceOpen,
  deviceNotify,
  deviceStatus,
];
