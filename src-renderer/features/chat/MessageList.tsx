import { useEffect, useLayoutEffect, useRef } from 'react';
import { useAppStore } from '../../store/StoreContext.js';
import { selectMessages } from '../../store/selectors.js';
import { MessageBubble } from './MessageBubble.js';

/** The open task's messages; keeps the newest in view while the user has not scrolled up. */
export function MessageList({ emptyHint }: { emptyHint: string }) {
  const messages = useAppStore(selectMessages);
  const taskLoading = useAppStore((s) => s.taskLoading);
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
  }, [messages]);

  return (
    <div className="message-scroll" ref={scrollRef}>
      {messages.length === 0 ? (
        <p className="empty-hint muted">{taskLoading ? 'Loading…' : emptyHint}</p>
      ) : (
        <ol className="message-list" aria-label="Messages">
          {messages.map((m) => (
            <MessageBubble key={m.id} message={m} />
          ))}
        </ol>
      )}
    </div>
  );
}
