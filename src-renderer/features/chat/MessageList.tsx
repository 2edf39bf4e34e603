import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useAppStore } from '../../store/StoreContext.js';
import { selectMessages, selectToolCalls } from '../../store/selectors.js';
import { buildTimeline, timelineKey } from '../../store/timeline.js';
import { MessageBubble } from './MessageBubble.js';
import { ToolCallCard } from './ToolCallCard.js';

/** The open task's messages and tool calls by time; keeps the newest in view while the user has not scrolled up. */
export function MessageList({ emptyHint }: { emptyHint: string }) {
  const messages = useAppStore(selectMessages);
  const toolCalls = useAppStore(selectToolCalls);
  const taskLoading = useAppStore((s) => s.taskLoading);
  const timeline = useMemo(() => buildTimeline(messages, toolCalls), [messages, toolCalls]);
  const scrollRef = useRef<HTMLDivElement>(null);
  const stickToBottom = useRef(true);

  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const onScroll = () => {
      stickToBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 48;
    };
    el.addEventListener('scroll', onScroll, { passive: true });
    return () => el.removeEventListener('scroll', onScroll);
  }, []);

  useLayoutEffect(() => {
    const el = scrollRef.current;
    if (el && stickToBottom.current) el.scrollTop = el.scrollHeight;
  }, [timeline]);

  return (
    <div className="message-scroll" ref={scrollRef}>
      {timeline.length === 0 ? (
        <p className="empty-hint muted">{taskLoading ? 'Loading…' : emptyHint}</p>
      ) : (
        <ol className="message-list" aria-label="Messages">
          {timeline.map((item) =>
            item.kind === 'message' ? (
              <MessageBubble key={timelineKey(item)} message={item.message} />
            ) : (
              <ToolCallCard key={timelineKey(item)} call={item.call} />
            ),
          )}
        </ol>
      )}
    </div>
  );
}
