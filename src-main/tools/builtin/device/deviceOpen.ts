import type { BuiltinToolDefinition } from '../../toolTypes.js';
import { objectSchema, shownArg } from '../files/common.js';
import { checkOpenTarget } from './openTarget.js';
import { asText, plain, shownPath, summarizer } from '../summaryText.js';

export type DeviceOpenArgs = { target: string };

export const deviceOpen: BuiltinToolDefinition<DeviceOpenArgs> = {
  name: 'device_open',
  description: 'Open a web address (http or https) in the browser, or a file in its usual app.',
  parameters: objectSchema(
    {
      target: {
        type: 'string',
        minLength: 1,
        maxLength: 4096,
        description: 'The address (https://...) or the full path of the file.',
      },
    },
    ['target'],
  ),
  risk: 'write',
  touches: 'device',
  forPeople: {
    title: 'Open an address or a file',
    text: 'Opens a web page in your browser or a file in its usual app, asking you each time.',
  },
  pathArgs: { target: 'target' },
  // What opens can run code in another app or load any page: the user sees the exact target every time.
  alwaysAsk: true,
  describe(args) {
    const target = shownArg(args.target);
    return {
      title: /^https?:/i.test(target) ? 'Open an address' : 'Open a file',
      summary: `Open ${target}`,
      details: [{ label: 'Opens', value: target }],
    };
  },
  summarize: summarizer<DeviceOpenArgs>((r) => {
    const opened = asText(r.opened);
    if (opened === undefined) return null;
    if (/^https?:\/\//i.test(opened.trim())) return `Opened ${plain(opened, 120)} in your browser.`;
    return `Opened ${shownPath(opened, 120)} in its usual app.`;
  }),
  async run(args, ctx) {
    const target = await checkOpenTarget(args.target, ctx);
    const shown = target.kind === 'url' ? target.url : target.path;
    await ctx.services.device({ kind: 'open', target: shown });
    return { result: { opened: shown } };
  },
};
