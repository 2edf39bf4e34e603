import type { Message, ToolCall } from '../../src-shared/contract/index.js';

export type TimelineItem = { kind: 'message'; message: Message } | { kind: 'toolcall'; call: ToolCall };

/**
 * The open task's messages and tool calls in one list by createdAt. Messages keep their seq order and calls
 * their creation order; on a tie the message comes first (a call is proposed by the reply it belongs to).
 */
export function buildTimeline(messages: readonly Message[], calls: readonly ToolCall[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let m = 0;
  let c = 0;
  while (m < messages.length || c < calls.length) {
    const message = messages[m];
    const call = calls[c];
    if (message && (!call || message.createdAt <= call.createdAt)) {
      items.push({ kind: 'message', message });
      m++;
    } else if (call) {
      items.push({ kind: 'toolcall', call });
      c++;
    }
  }
  return items;
}

export function timelineKey(item: TimelineItem): string {
  return item.kind === 'message' ? `m:${item.message.id}` : `c:${item.call.id}`;
}
