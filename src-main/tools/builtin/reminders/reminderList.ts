import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { boolArg, objectSchema } from '../files/common.js';
import { reminderView } from './format.js';
import { loadReminders } from './remindersStore.js';
import { asCount, asObjects, asText, plain, plural, quoted, series, summarizer } from '../summaryText.js';

export type ReminderListArgs = { includeDone?: boolean };

export const reminderList: BuiltinToolDefinition<ReminderListArgs> = {
  name: 'reminder_list',
  description: "List the user's reminders that are not done yet, soonest first.",
  parameters: objectSchema(
    { includeDone: { type: 'boolean', description: 'true: also list reminders already done.' } },
    [],
  ),
  risk: 'read',
  touches: 'reminders',
  forPeople: { title: 'List your reminders', text: 'Shows your reminders that are not done yet, soonest first.' },
  provenance: { reads: [{ field: 'reminders[].id', prefix: 'reminder:' }] },
  describe(args) {
    return {
      title: 'List reminders',
      summary: boolArg(args.includeDone) ? 'List all reminders, done ones too.' : 'List the reminders not done yet.',
      details: [],
    };
  },
  summarize: summarizer<ReminderListArgs>((r, args) => {
    const reminders = asObjects(r.reminders);
    if (reminders === undefined) return null;
    const total = asCount(r.count) ?? reminders.length;
    if (total === 0) return args.includeDone === true ? 'You have no reminders.' : 'No reminders are waiting.';
    const items = reminders
      .map((item) => {
        const text = asText(item.text);
        if (text === undefined) return undefined;
        const due = asText(item.due);
        const when = item.done === true ? 'done' : due !== undefined ? plain(due, 30) : undefined;
        return `${quoted(text, 40)}${when !== undefined ? ` (${when})` : ''}`;
      })
      .filter((item): item is string => item !== undefined);
    const head = `${plural(total, 'reminder')}${args.includeDone === true ? '' : ' waiting'}`;
    return items.length > 0 ? `${head}: ${series(items, total)}.` : `${head}.`;
  }),
  async run(args, ctx) {
    const { reminders } = await loadReminders(ctx);
    const shown = reminders
      .filter((r) => boolArg(args.includeDone) || !r.done)
      .sort((a, b) => Date.parse(a.due) - Date.parse(b.due));
    return {
      result: {
        count: shown.length,
        timeZone: ctx.packs.timeZone,
        reminders: shown.map((r) => reminderView(r, ctx.packs.timeZone)),
      },
    };
  },
};
