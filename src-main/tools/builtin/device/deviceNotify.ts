import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { asText, quoted, summarizer } from '../summaryText.js';

export type DeviceNotifyArgs = { title: string; body: string };

export const deviceNotify: BuiltinToolDefinition<DeviceNotifyArgs> = {
  name: 'device_notify',
  description: 'Show the user a desktop notification now.',
  parameters: objectSchema(
    {
      title: { type: 'string', minLength: 1, maxLength: 100, description: 'Short title.' },
      body: { type: 'string', maxLength: 1000, description: 'The message.' },
    },
    ['title', 'body'],
  ),
  risk: 'write',
  touches: 'device',
  forPeople: { title: 'Show a notification', text: 'Shows you a notification on this computer.' },
  describe(args) {
    return {
      title: 'Show a notification',
      summary: `Show the notification "${shownArg(args.title)}".`,
      details: [
        { label: 'Title', value: shownArg(args.title) },
        { label: 'Message', value: shownArg(args.body) },
      ],
    };
  },
  summarize: summarizer<DeviceNotifyArgs>((r, args) => {
    if (r.notified !== true) return null;
    const title = asText(args.title);
    const what = title !== undefined ? `the notification ${quoted(title)}` : 'a notification';
    if (r.done === false) return `Could not show ${what}: this system shows no notifications.`;
    if (r.shown === 'page') return `Showed ${what} in Homebody's window.`;
    return `Showed ${what}.`;
  }),
  async run(args, ctx) {
    const answer = await ctx.services.device({ kind: 'notify', title: args.title, body: args.body });
    return {
      result: { notified: true, ...(answer && typeof answer === 'object' && !Array.isArray(answer) ? answer : {}) },
    };
  },
};
