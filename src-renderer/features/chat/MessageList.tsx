import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useAppStore } from '../../store/StoreContext.js';
import { selectFocusTarget, selectMessages, selectOpenTaskId, selectToolCalls } from '../../store/selectors.js';
import { buildTimeline, timelineKey } from '../../store/timeline.js';
import { MessageBubble } from './MessageBubble.js';
import { ToolCallCard } from './ToolCallCard.js';

/** The open task's messages and tool calls by time; keeps the newest in view while the user has not scrolled up. */
export function MessageList({ emptyHint }: { emptyHint: string }) {
  const messages = useAppStore(selectMessages);
  const toolCalls = useAppStore(selectToolCalls);
  const taskLoading = useAppStore((s) => s.taskLoading);
  const openTaskId = useAppStore(selectOpenTaskId);
  const focusTarget = useAppStore(selectFocusTarget);
  const clearFocusTarget = useAppStore((s) => s.clearFocusTarget);
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

  // A search hit opened this task: once its message or call is shown, bring it into view and flash it.
  // Declared after the effect above, so it wins over keeping the newest in view.
  useLayoutEffect(() => {
    if (!focusTarget || focusTarget.taskId !== openTaskId) return;
    const attribute = focusTarget.kind === 'message' ? 'data-message-id' : 'data-call-id';
    const target = scrollRef.current?.querySelector<HTMLElement>(`[${attribute}="${CSS.escape(focusTarget.id)}"]`);
    if (!target) {
      // The task is shown and the target is not in it (deleted since the search): nothing to jump to.
      if (!taskLoading) clearFocusTarget();
      return;
    }
    stickToBottom.current = false;
    flashTarget(scrollRef.current, target);
    clearFocusTarget();
  }, [focusTarget, openTaskId, timeline, taskLoading, clearFocusTarget]);

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

/**
 * Scrolls to a search hit's message or call, gives it the focus (so a screen reader reads it) and flashes it.
 * `data-search-target` stays on it until another hit is opened, for tests and for the CSS outline.
 */
function flashTarget(container: HTMLElement | null, target: HTMLElement): void {
  for (const previous of container?.querySelectorAll('[data-search-target]') ?? []) {
    previous.removeAttribute('data-search-target');
    previous.classList.remove('search-flash');
  }
  target.scrollIntoView({ block: 'center' });
  target.setAttribute('data-search-target', 'true');
  if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
  target.focus({ preventScroll: true });
  target.classList.remove('search-flash');
  // Restart the animation when the same element is flashed twice in a row.
  void target.offsetWidth;
  target.classList.add('search-flash');
  target.addEventListener('animationend', () => target.classList.remove('search-flash'), { once: true });
}
