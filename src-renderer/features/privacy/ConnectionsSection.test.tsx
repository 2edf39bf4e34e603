// @vitest-environment happy-dom
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EgressEvent } from '../../../src-shared/contract/index.js';
import { fakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { ConnectionsSection } from './ConnectionsSection.js';

const base = {
  at: Date.UTC(2026, 11, 2, 12),
  port: 8080,
  allowed: true,
  reason: 'rule remote-model: 192.168.1.20',
  via: 'guard' as const,
};
const remoteRequest: EgressEvent = {
  ...base,
  id: 2,
  source: 'model on the study computer',
  feature: 'remote-model',
  url: 'http://192.168.1.20:8080/completion',
  host: '192.168.1.20',
  bytes: 2048,
  sent: 10_240,
  carried: 'the conversation, 1 tool result',
};
const download: EgressEvent = {
  ...base,
  id: 1,
  source: 'model download: BotPsy',
  feature: 'model-download',
  url: 'https://huggingface.co/a.gguf',
  host: 'huggingface.co',
  port: 443,
  reason: 'online',
  bytes: 4096,
};

describe('the ledger of connections', () => {
  it('shows a request to a model on another computer with its bytes up and down and what it carried', async () => {
    const host = fakeHost({
      'privacy.ledger': () => ({ events: [remoteRequest, download], total: 2, allowedCount: 2 }),
    });
    const { store } = renderWithStore(<ConnectionsSection />, host);
    await store.getState().loadLedger();
    await waitFor(() => expect(screen.getAllByTestId('ledger-row')).toHaveLength(2));
    const [remote, other] = screen.getAllByTestId('ledger-row');
    expect(within(remote!).getByTestId('ledger-bytes').textContent).toBe('↑ 10.2 KB ↓ 2.0 KB');
    expect(within(remote!).getByTestId('ledger-carried').textContent).toBe('Carried the conversation, 1 tool result');
    // A feature that counts only what came back shows that alone, and says nothing of what it carried.
    expect(within(other!).getByTestId('ledger-bytes').textContent).toBe('4.1 KB');
    expect(within(other!).queryByTestId('ledger-carried')).toBeNull();
  });
});
