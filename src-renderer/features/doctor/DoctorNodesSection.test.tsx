// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { NodeCheck } from '../../../src-shared/contract/index.js';
import { fakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { DoctorNodesSection } from './DoctorNodesSection.js';

const base = { label: 'the study', url: 'http://192.168.1.20:8080', model: 'botpsy-q8' };

describe("the Doctor's models on other computers", () => {
  it('shows each measured node, and why another could not be measured', () => {
    const nodes: NodeCheck[] = [
      { id: 'a', ...base, roundTripMs: 3.2, ttftMs: 412, tokensPerSecond: 24.6, completionTokens: 16, error: null },
      {
        id: 'b',
        ...base,
        label: 'the attic',
        roundTripMs: null,
        ttftMs: null,
        tokensPerSecond: null,
        completionTokens: null,
        error: { code: 'NETWORK_BLOCKED', message: 'Offline mode is on: Homebody did not connect to 192.168.1.21.' },
      },
    ];
    renderWithStore(<DoctorNodesSection nodes={nodes} />, fakeHost());
    const [ok, failed] = screen.getAllByTestId('doctor-node');
    expect(ok!.dataset.ok).toBe('true');
    expect(ok!.textContent).toContain('botpsy-q8on the study, http://192.168.1.20:8080');
    expect(screen.getByTestId('doctor-node-round-trip').textContent).toBe('3.2 ms');
    expect(ok!.textContent).toContain('412 ms');
    expect(screen.getByTestId('doctor-node-speed').textContent).toBe('25 replymeasured on 16 tokens');
    expect(failed!.dataset.ok).toBe('false');
    expect(screen.getByTestId('doctor-node-error').textContent).toContain('Offline mode is on');
    expect(screen.getByTestId('doctor-node-error').dataset.errorCode).toBe('NETWORK_BLOCKED');
  });
});
