// @vitest-environment happy-dom
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ChatStats, Message } from '../../../src-shared/contract/index.js';
import { fakeHost } from '../../testing/fakeHost.js';
import { makeMessage, makeTask } from '../../testing/testFixtures.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { TaskTimeline } from '../history/TaskTimeline.js';
import { MessageBubble } from './MessageBubble.js';

const stats = (extra: Partial<ChatStats> = {}): ChatStats => ({
  promptTokens: 40,
  completionTokens: 212,
  ttftMs: 90,
  tokensPerSecond: 30,
  ...extra,
});

const ONLY_THOUGHT =
  'The model only thought and gave no answer. Try again, or turn thinking off for this model in Models.';

function bubble(message: Message) {
  return renderWithStore(
    <ul>
      <MessageBubble message={message} />
    </ul>,
    fakeHost(),
  );
}

describe("a reply's thought in the chat", () => {
  it('streams collapsed under "Thinking…", then says how many tokens it took', () => {
    const streaming = makeMessage({ reasoning: 'The user wants the weather', state: 'streaming' });
    const { rerender, store } = bubble(streaming);
    const summary = screen.getByTestId('message-reasoning-summary');
    expect(summary.textContent).toBe('Thinking…');
    expect(screen.getByTestId('message-reasoning').hasAttribute('open')).toBe(false);

    const done = { ...streaming, text: 'Sunny.', state: 'complete' as const, stats: stats({ reasoningTokens: 212 }) };
    rerender(
      <ul>
        <MessageBubble message={done} />
      </ul>,
    );
    expect(screen.getByTestId('message-reasoning-summary').textContent).toBe('Thought for 212 tokens');
    expect(screen.queryByTestId('message-only-thought')).toBeNull();
    expect(store.getState().page).toBe('chat');
  });

  it('says only "Thinking" on a reply recorded before thought tokens were counted, and "1 token" in the singular', () => {
    const old = makeMessage({ text: 'Sunny.', reasoning: 'Hmm.', state: 'complete', stats: stats() });
    const { unmount } = bubble(old);
    expect(screen.getByTestId('message-reasoning-summary').textContent).toBe('Thinking');
    unmount();
    bubble({ ...old, stats: stats({ reasoningTokens: 1 }) });
    expect(screen.getByTestId('message-reasoning-summary').textContent).toBe('Thought for 1 token');
  });

  it('shows no thought where the model did not think', () => {
    bubble(makeMessage({ text: 'Sunny.', state: 'complete', stats: stats({ reasoningTokens: 0 }) }));
    expect(screen.queryByTestId('message-reasoning')).toBeNull();
  });

  it('says plainly that a finished reply was all thought, keeps the thought to open, and leads to Models by keyboard', async () => {
    const message = makeMessage({
      text: '',
      reasoning: 'Let me think about which calendar to read.',
      state: 'complete',
      stats: stats({ reasoningTokens: 212 }),
    });
    const { user, store } = bubble(message);
    const note = screen.getByTestId('message-only-thought');
    expect(note.getAttribute('role')).toBe('note');
    expect(within(note).getByText(ONLY_THOUGHT)).toBeTruthy();
    expect(screen.queryByLabelText('Homebody is writing')).toBeNull();

    // The thought's summary is the first stop for Tab (a native disclosure: browsers open it with Enter or Space,
    // happy-dom only on a click), and the way to Models the next.
    const details = screen.getByTestId('message-reasoning');
    await user.tab();
    expect(document.activeElement).toBe(screen.getByTestId('message-reasoning-summary'));
    await user.click(screen.getByTestId('message-reasoning-summary'));
    expect(details.hasAttribute('open')).toBe(true);
    expect(within(details).getByText('Let me think about which calendar to read.')).toBeTruthy();
    await user.tab();
    expect(document.activeElement).toBe(screen.getByTestId('message-only-thought-models'));
    await user.keyboard('{Enter}');
    expect(store.getState().page).toBe('models');
  });

  it('says so at the length cap too, but not for a reply the user stopped or one still thinking', () => {
    const thought = { text: '', reasoning: 'Thinking it over…' };
    const { unmount } = bubble(makeMessage({ ...thought, state: 'truncated', stats: stats() }));
    expect(screen.getByTestId('message-only-thought')).toBeTruthy();
    unmount();
    const stopped = bubble(makeMessage({ ...thought, state: 'stopped', stats: stats() }));
    expect(screen.queryByTestId('message-only-thought')).toBeNull();
    stopped.unmount();
    bubble(makeMessage({ ...thought, state: 'streaming' }));
    expect(screen.queryByTestId('message-only-thought')).toBeNull();
    expect(screen.getByLabelText('Homebody is writing')).toBeTruthy();
  });
});

describe("a reply's thought in the history timeline", () => {
  it('is collapsed with its token count, a reply that only thought says so, and the count is among its figures', () => {
    const task = makeTask({ id: 't1', status: 'completed', messageCount: 3 });
    const messages = [
      makeMessage({ id: 'u', seq: 0, role: 'user', text: 'Plan my day', state: 'complete' }),
      makeMessage({
        id: 'a1',
        seq: 1,
        reasoning: 'Which calendar?',
        state: 'complete',
        stats: stats({ reasoningTokens: 212 }),
      }),
      makeMessage({ id: 'a2', seq: 2, text: 'Done.', reasoning: 'Easy.', state: 'complete', stats: stats() }),
    ];
    renderWithStore(<TaskTimeline taskId="t1" onBack={() => undefined} />, fakeHost(), {
      timelineDetail: { task, messages, toolCalls: [] },
    });
    const [, first, second] = screen.getAllByTestId('timeline-message');
    if (!first || !second) throw new Error('the timeline shows fewer messages than the task has');
    expect(within(first).getByTestId('message-reasoning-summary').textContent).toBe('Thought for 212 tokens');
    expect(within(first).getByTestId('message-reasoning').hasAttribute('open')).toBe(false);
    expect(within(first).getByTestId('timeline-only-thought').textContent).toBe('(no answer: the model only thought)');
    expect(within(first).getByTestId('timeline-reasoning-tokens').textContent).toBe('212 tokens');
    expect(within(second).getByTestId('message-reasoning-summary').textContent).toBe('Thinking');
    expect(within(second).queryByTestId('timeline-only-thought')).toBeNull();
    expect(within(second).queryByTestId('timeline-reasoning-tokens')).toBeNull();
  });
});

describe('a reply with no text', () => {
  it('shows no empty bubble once finished, only its figures; while it is written, the typing dots', () => {
    const done = makeMessage({ role: 'assistant', text: '', reasoning: '', state: 'complete', stats: stats() });
    const first = bubble(done);
    const item = screen.getByTestId('message-assistant');
    expect(item.querySelector('.bubble')).toBeNull();
    expect(within(item).getByTestId('message-stats').textContent).not.toBe('');
    first.unmount();
    bubble(makeMessage({ role: 'assistant', text: '', reasoning: '', state: 'streaming' }));
    expect(screen.getByLabelText('Homebody is writing')).toBeTruthy();
  });
});
