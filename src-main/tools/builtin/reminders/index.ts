import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { reminderAdd } from './reminderAdd.js';
import { reminderDone } from './reminderDone.js';
import { reminderList } from './reminderList.js';

export { readReminders, pendingReminders, serializeReminders, type Reminder } from './remindersFile.js';

/** Reminders in one JSON file; the Host's scheduler shows each when it falls due. */
export const REMINDER_TOOLS: BuiltinToolDefinition[] = [reminderAdd, reminderList, reminderDone];
