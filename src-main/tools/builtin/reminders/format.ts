import { DateTime } from 'luxon';
import type { JsonValue } from '../../toolTypes.js';
import type { Reminder } from './remindersFile.js';

/** "Tue 1 Dec 2026, 09:00" in the user's zone: what the model repeats to the user. */
export function showDue(iso: string, zone: string): string {
  return DateTime.fromISO(iso, { setZone: true }).setZone(zone).toFormat('ccc d LLL yyyy, HH:mm');
}

export function reminderView(r: Reminder, zone: string): JsonValue {
  return { id: r.id, text: r.text, due: showDue(r.due, zone), done: r.done, ...(r.notified ? { shown: true } : {}) };
}
