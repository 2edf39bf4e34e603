import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { addEvent } from './addEvent.js';
import { cancelEvent } from './cancelEvent.js';
import { findFree } from './findFree.js';
import { listEvents } from './listEvents.js';
import { moveEvent } from './moveEvent.js';

/** The calendar pack: iCalendar files in the calendar folder, read from any app and written one event per file. */
export const CALENDAR_TOOLS: BuiltinToolDefinition[] = [listEvents, findFree, addEvent, moveEvent, cancelEvent];
