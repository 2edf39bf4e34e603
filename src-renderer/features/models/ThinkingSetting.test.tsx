// @vitest-environment happy-dom
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { LocalModel, ModelState, ModelsListing, ThinkingDefault } from '../../../src-shared/contract/index.js';
import { ApiCallError } from '../../bridge/apiError.js';
import { fakeHost, type FakeAnswers } from '../../testing/fakeHost.js';
import { renderWithStore } from '../../testing/renderWithStore.js';
import { ModelsPage } from './ModelsPage.js';

const PATH = '/data/models/botpsy.gguf';

function makeModel(overrides: Partial<LocalModel> = {}): LocalModel {
  return {
    id: 'm1',
    path: PATH,
    name: 'BotPsy 0.8B Q8',
    sizeBytes: 341_000_000,
    source: 'downloaded',
    catalogId: null,
    sha256: null,
    integrity: 'size-matched',
    active: true,
    missing: false,
    addedAt: 1,
    thinking: 'auto',
    ...overrides,
  };
}

const listing = (model: LocalModel): ModelsListing => ({
  catalog: [],
  models: [model],
  downloads: [],
  modelsDir: '/data/models',
});

function ready(thinkingDefault: ThinkingDefault | undefined): ModelState {
  return {
    status: 'ready',
    info: {
      path: PATH,
      name: 'BotPsy',
      architecture: 'qwen35',
      sizeBytes: 341_000_000,
      contextSize: 4096,
      trainContextSize: 32_768,
      synthetic: false,
      gpu: 'cpu',
      ...(thinkingDefault ? { thinkingDefault } : {}),
    },
  };
}

function page(model: LocalModel, modelState: ModelState, answers: FakeAnswers = {}) {
  const host = fakeHost({ 'models.list': () => listing(model), ...answers });
  const rendered = renderWithStore(<ModelsPage />, host, { modelState });
  return { ...rendered, host };
}

const select = () => screen.getByTestId<HTMLSelectElement>('local-model-thinking-select');
const optionLabels = () => [...select().options].map((o) => o.textContent);

describe("the Models page's thinking setting", () => {
  it("names the loaded model's template default, and saves a choice for that model", async () => {
    const model = makeModel();
    const { user, host, store } = page(model, ready('on'), {
      'models.setThinking': ({ id, thinking }) => {
        // The Host announces the new listing before it answers, as modelLibrary does.
        const next = makeModel({ id, thinking });
        store.getState().applyEvent({ type: 'models.changed', listing: listing(next) });
        return next;
      },
    });
    await waitFor(() => expect(select().value).toBe('auto'));
    expect(optionLabels()).toEqual(["As the model's template says (on)", 'On', 'Off']);
    expect(screen.getByLabelText('Thinking')).toBe(select());
    expect(screen.getByTestId('local-model-thinking-hint').textContent).toMatch(
      /next reply; the model does not reload/,
    );

    await user.selectOptions(select(), 'off');
    expect(host.requestsTo('models.setThinking')).toEqual([{ id: 'm1', thinking: 'off' }]);
    await waitFor(() => expect(select().value).toBe('off'));
    expect(select().disabled).toBe(false);
  });

  it("says the template's default shows once loaded, for a model that is not loaded", async () => {
    page(makeModel({ active: false, thinking: 'on' }), { status: 'none' });
    await waitFor(() => expect(select().value).toBe('on'));
    expect(optionLabels()).toEqual(["As the model's template says", 'On', 'Off']);
    expect(screen.getByTestId('local-model-thinking-hint').textContent).toMatch(/once the model is loaded/);
  });

  it('is disabled, with the reason, when the loaded template has no thinking', async () => {
    page(makeModel(), ready('none'));
    await waitFor(() => expect(select().disabled).toBe(true));
    expect(screen.getByTestId('local-model-thinking-hint').textContent).toBe(
      "This model's chat template has no thinking, so there is nothing to switch.",
    );
    expect(select().getAttribute('aria-describedby')).toBe(
      screen.getByTestId('local-model-thinking-hint').getAttribute('id'),
    );
  });

  it('goes back to the saved choice and shows why when the Host refuses it', async () => {
    const { user } = page(makeModel({ thinking: 'off' }), ready('off'), {
      'models.setThinking': () => {
        throw new ApiCallError('MODEL_NOT_FOUND', 'There is no model m1 in the list.');
      },
    });
    await waitFor(() => expect(select().value).toBe('off'));
    expect(optionLabels()[0]).toBe("As the model's template says (off)");
    await user.selectOptions(select(), 'on');
    await waitFor(() => expect(screen.getByTestId('local-model-error').textContent).toMatch(/no model m1/));
    expect(select().value).toBe('off');
  });
});
