import { randomBytes } from 'node:crypto';
import { DateTime } from 'luxon';
import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { showDue } from './format.js';
import { parseDue } from './parseDue.js';
import { MAX_REMINDERS } from './remindersFile.js';
import { updateReminders } from './remindersStore.js';
import { asText, plain, quoted, summarizer } from '../summaryText.js';

export type ReminderAddArgs = { text: string; due: string };

/** A due time this far in the past is surely a mistake (a wrong year or day), not "now". */
const PAST_TOLERANCE_MS = 60_000;

export const reminderAdd: BuiltinToolDefinition<ReminderAddArgs> = {
  name: 'reminder_add',
  description: 'Remind the user of something at a time: a notification is shown when it is due.',
  parameters: objectSchema(
    {
      // 1000, not 2000: with a 2000 cap node-llama-cpp's grammar for this schema let no call through (seen here).
      text: { type: 'string', minLength: 1, maxLength: 1000, description: 'What to remind of, e.g. "Call mum".' },
      due: {
        type: 'string',
        minLength: 1,
        maxLength: 100,
        description: 'When: "in 20 minutes", "tomorrow at 9:00", or a local date and time like 2026-12-01T09:00.',
      },
    },
    ['text', 'due'],
  ),
  risk: 'write',
  touches: 'reminders',
  forPeople: {
    title: 'Add a reminder',
    text: 'Sets a reminder, and Homebody shows you a notification when it is due.',
  },
  provenance: { writes: [{ key: { field: 'id', prefix: 'reminder:' } }] },
  describe(args) {
    return {
      title: 'Add a reminder',
      summary: `Remind you "${shownArg(args.text)}" ${shownArg(args.due)}.`,
      details: [
        { label: 'Reminder', value: shownArg(args.text) },
        { label: 'When', value: shownArg(args.due) },
      ],
    };
  },
  summarize: summarizer<ReminderAddArgs>((r) => {
    const text = asText(r.text);
    const due = asText(r.due);
    if (text === undefined || due === undefined) return null;
    return `Set a reminder ${quoted(text)} for ${plain(due, 40)}.`;
  }),
  async run(args, ctx) {
    const zone = ctx.packs.timeZone;
    const now = DateTime.now();
    const due = parseDue(args.due, zone, now);
    if (due.toMillis() < now.toMillis() - PAST_TOLERANCE_MS) {
      throw new ToolError(
        'INVALID_INPUT',
        `${showDue(due.toISO() ?? args.due, zone)} has already passed; give a later time.`,
      );
    }
    const { value: reminder, undo } = await updateReminders(ctx, (content) => {
      if (content.reminders.length >= MAX_REMINDERS) {
        throw new ToolError('TOO_LARGE', `There are ${MAX_REMINDERS} reminders already; mark some done first.`);
      }
      const taken = new Set(content.reminders.map((r) => r.id));
      let id = randomBytes(3).toString('hex');
      while (taken.has(id)) id = randomBytes(3).toString('hex');
      const added = {
        id,
        text: args.text.trim(),
        due: due.toISO() ?? due.toUTC().toString(),
        created: now.toUTC().toISO() ?? '',
        done: false,
        notified: false,
      };
      content.reminders.push(added);
      return added;
    });
    return { result: { id: reminder.id, text: reminder.text, due: showDue(reminder.due, zone), timeZone: zone }, undo };
  },
};
