import { z } from 'zod';

/**
 * The device bridge of browser mode, and reminders as the renderer sees them. In browser mode the Host cannot reach
 * the clipboard, open a tab or show a notification itself: it sends each device request to the connected page as a
 * `device.request` event and waits for the page's `device.answer`. The desktop app answers in its main process and
 * never sends these events.
 */
const Id = z.string().min(1).max(64);
const MAX_CLIPBOARD_CHARS = 100_000;

export const DeviceRequestSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('clipboard-read') }),
  z.object({ kind: z.literal('clipboard-write'), text: z.string().max(MAX_CLIPBOARD_CHARS) }),
  /** An http or https address (browser mode opens no files: a page cannot). */
  z.object({ kind: z.literal('open'), target: z.string().max(4096) }),
  z.object({ kind: z.literal('notify'), title: z.string().max(200), body: z.string().max(2000) }),
]);
export type DeviceRequestView = z.infer<typeof DeviceRequestSchema>;

/** A request the Host waits on the page to carry out; `id` goes back in `device.answer`. */
export const DeviceRequestEventSchema = z.object({
  type: z.literal('device.request'),
  id: Id,
  request: DeviceRequestSchema,
});

/** What the page did: clipboard-read answers `{text}`; the others `{done: true}` (notify may add `shown`). */
export const DeviceAnswerSchema = z.discriminatedUnion('ok', [
  z
    .object({
      id: Id,
      ok: z.literal(true),
      text: z.string().max(MAX_CLIPBOARD_CHARS).optional(),
      /** notify: `system` (a browser notification) or `page` (only the page's own toast). */
      shown: z.enum(['system', 'page']).optional(),
    })
    .strict(),
  z.object({ id: Id, ok: z.literal(false), message: z.string().min(1).max(500) }).strict(),
]);
export type DeviceAnswer = z.infer<typeof DeviceAnswerSchema>;

/** A reminder the user set, as it falls due. `due` is ISO 8601 with an offset. */
export const DueReminderSchema = z.object({ id: Id, text: z.string(), due: z.string() });
export type DueReminder = z.infer<typeof DueReminderSchema>;

export const ReminderDueEventSchema = z.object({ type: z.literal('reminder.due'), reminder: DueReminderSchema });

export const deviceApiSchemas = {
  /** The page's answer to a `device.request` event; `accepted` is false when the Host no longer waits for it. */
  'device.answer': { request: DeviceAnswerSchema, response: z.object({ accepted: z.boolean() }) },
} as const;
