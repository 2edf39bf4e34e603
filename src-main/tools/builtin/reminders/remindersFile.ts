/**
 * The reminders file: JSON that both the reminder tools (in the tool worker) and the Host's scheduler read and
 * write, each time whole, through a temp file and a rename. `notified` is set by the scheduler once a reminder's
 * notification was shown, so it fires once, also across restarts.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { ToolError } from '../../toolTypes.js';
import { errnoCode } from '../files/fsHelpers.js';

export const ReminderSchema = z.object({
  id: z.string().min(1).max(64),
  text: z.string().min(1).max(2000),
  /** ISO 8601 with the offset of the zone it was set in. */
  due: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'not a date'),
  created: z.string(),
  done: z.boolean(),
  notified: z.boolean(),
});
export type Reminder = z.infer<typeof ReminderSchema>;

export const RemindersFileSchema = z.object({ version: z.literal(1), reminders: z.array(ReminderSchema) });
export type RemindersFile = z.infer<typeof RemindersFileSchema>;

export const MAX_REMINDERS = 2000;

export function emptyReminders(): RemindersFile {
  return { version: 1, reminders: [] };
}

/** The file's content; a missing file is an empty list, a damaged one a clear error (it is never overwritten). */
export async function readReminders(file: string): Promise<RemindersFile> {
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return emptyReminders();
    throw new ToolError('IO_ERROR', `Cannot read the reminders file ${file}: ${(err as Error).message}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    throw new ToolError('INVALID_INPUT', `The reminders file ${file} is not valid JSON; fix or move it away.`);
  }
  const parsed = RemindersFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new ToolError(
      'INVALID_INPUT',
      `The reminders file ${file} is not in Homebody's format; fix or move it away.`,
    );
  }
  return parsed.data;
}

export function serializeReminders(content: RemindersFile): string {
  return `${JSON.stringify(content, null, 2)}\n`;
}

/** Reminders still waiting to be shown: not done, not yet notified. */
export function pendingReminders(content: RemindersFile): Reminder[] {
  return content.reminders.filter((r) => !r.done && !r.notified);
}
