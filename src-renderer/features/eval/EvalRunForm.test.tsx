// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LocalModel } from '../../../src-shared/contract/index.js';
import { fakeHost } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { makeRemoteNode } from '../../testing/testFixtures.js';
import { EvalRunForm } from './EvalRunForm.js';

const FILE: LocalModel = {
  id: 'm1',
  path: '/data/models/botpsy-q4.gguf',
  name: 'BotPsy',
  sizeBytes: 1,
  source: 'added',
  catalogId: null,
  sha256: null,
  integrity: 'unchecked',
  active: true,
  missing: false,
  addedAt: 1,
};

const NODE = makeRemoteNode();

describe('choosing models to evaluate', () => {
  it('offers the models on other computers beside the files, and runs a file and a node in one run', async () => {
    const host = fakeHost({ 'eval.start': () => ({ runId: 'r1', total: 2 }) });
    const { user } = renderWithStore(<EvalRunForm />, host, {
      modelsListing: { catalog: [], models: [FILE], downloads: [], modelsDir: '/data/models' },
      nodes: [NODE],
      evalSuites: [{ id: 'default', name: 'Default', format: 'homebody', cases: 3, description: 'd' }],
      evalRuns: [],
    });
    const options = screen.getAllByTestId<HTMLInputElement>('eval-model-option');
    expect(options.map((o) => o.dataset.path)).toEqual([FILE.path, 'remote:n1']);
    const nodeLabel = options[1]!.closest('label')!;
    expect(nodeLabel.textContent).toContain('botpsy-q8 on the study');
    expect(nodeLabel.textContent).toContain(NODE.url);
    expect(nodeLabel.title).toBe(NODE.url);

    for (const option of options) await user.click(option);
    await user.click(screen.getAllByTestId('eval-suite-option')[0]!);
    await user.click(screen.getByTestId('eval-run'));
    await waitFor(() => expect(host.requestsTo('eval.start')).toHaveLength(1));
    expect(host.requestsTo('eval.start')[0]).toEqual({ models: [FILE.path, 'remote:n1'], suites: ['default'] });
  });
});
