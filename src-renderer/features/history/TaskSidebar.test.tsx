// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { makeTask, makeToolCall } from '../../testing/testFixtures.js';
import { TaskSidebar } from './TaskSidebar.js';

describe('the sidebar says which tasks wait for the user', () => {
  it('shows "Waiting for you" for a task whose call waits, and opens it at that prompt', async () => {
    const waiting = makeTask({ id: 'w', title: 'rename the draft', status: 'completed', waitingCalls: 1 });
    const done = makeTask({ id: 'd', title: 'what time is it', status: 'completed' });
    const replying = makeTask({ id: 'r', title: 'tell me a story', status: 'running' });
    const asking = makeToolCall({ id: 'asking', taskId: 'w', gate: 'prompt', state: 'pending' });
    const host = fakeHost({ 'tasks.get': () => ({ task: waiting, messages: [], toolCalls: [asking] }) });
    const view = renderWithStore(<TaskSidebar />, host, { tasks: [waiting, done, replying] });

    const item = (id: string) => screen.getAllByTestId('task-item').find((el) => el.dataset.taskId === id)!;
    expect(item('w').textContent).toContain('Waiting for you');
    expect(item('r').textContent).toContain('Replying…');
    // A task that finished normally says nothing beside its time.
    expect(item('d').querySelector('[data-testid="task-status"]')).toBeNull();

    await view.user.click(item('w'));
    expect(view.store.getState().openTaskId).toBe('w');
    expect(view.store.getState().focusTarget).toEqual({ taskId: 'w', kind: 'toolCall', id: 'asking' });
  });
});
