import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { ToolError } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { reminderView } from './format.js';
import { updateReminders } from './remindersStore.js';
import { asObject, asText, quoted, summarizer } from '../summaryText.js';

export type ReminderDoneArgs = { id: string };

export const reminderDone: BuiltinToolDefinition<ReminderDoneArgs> = {
  name: 'reminder_done',
  description: 'Mark a reminder done (or cancel it), by the id reminder_list shows.',
  parameters: objectSchema(
    { id: { type: 'string', minLength: 1, maxLength: 64, description: 'The reminder\'s id, e.g. "a1b2c3".' } },
    ['id'],
  ),
  risk: 'write',
  touches: 'reminders',
  forPeople: { title: 'Finish a reminder', text: 'Marks one of your reminders done, or cancels it.' },
  describe(args) {
    return {
      title: 'Mark a reminder done',
      summary: `Mark reminder ${shownArg(args.id)} done; it will not be shown any more.`,
      details: [{ label: 'Reminder', value: shownArg(args.id) }],
    };
  },
  summarize: summarizer<ReminderDoneArgs>((r) => {
    const text = asText(asObject(r.done)?.text);
    return text !== undefined ? `Marked the reminder ${quoted(text)} done.` : null;
  }),
  async run(args, ctx) {
    const { value, undo } = await updateReminders(ctx, (content) => {
      const reminder = content.reminders.find((r) => r.id === args.id.trim());
      if (!reminder) {
        throw new ToolError('NOT_FOUND', `There is no reminder ${args.id}; reminder_list shows the ids.`);
      }
      reminder.done = true;
      return reminder;
    });
    return { result: { done: reminderView(value, ctx.packs.timeZone) }, undo };
  },
};
