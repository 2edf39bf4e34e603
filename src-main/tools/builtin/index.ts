import type { BuiltinToolDefinition } from '../toolTypes.js';
import { FILE_TOOLS } from './files/index.js';
import { CALENDAR_TOOLS } from './calendar/index.js';
import { CONTACT_TOOLS } from './contacts/index.js';
import { NOTE_TOOLS } from './notes/index.js';
import { REMINDER_TOOLS } from './reminders/index.js';
import { UTILITY_TOOLS } from './utilities/index.js';
import { DEVICE_TOOLS } from './device/index.js';
import { WEB_TOOLS } from './web/index.js';
import { MAIL_TOOLS } from './mail/index.js';

/**
 * Every built-in tool pack, in the order the model is offered them. A pack is a folder under builtin/ with an
 * index.ts exporting its tools; add it here with one line. The tool worker runs exactly these.
 */
export const BUILTIN_TOOLS: readonly BuiltinToolDefinition[] = [
  ...FILE_TOOLS,
  ...CALENDAR_TOOLS,
  ...CONTACT_TOOLS,
  ...NOTE_TOOLS,
  ...REMINDER_TOOLS,
  ...UTILITY_TOOLS,
  ...DEVICE_TOOLS,
  ...MAIL_TOOLS,
  ...WEB_TOOLS,
];
