import { useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { AppError } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import {
  evalModelChoices,
  nodeEvalChoices,
  fileNameOf,
  parseCaseLimit,
  parseModelPath,
  quantFromFileName,
  runBlocker,
  type EvalModelChoice,
} from '../../store/evalView.js';

/** What to run: models from the library (or a path), suites, and how many cases of each. */
export function EvalRunForm() {
  const listing = useAppStore((s) => s.modelsListing);
  const modelsError = useAppStore((s) => s.modelsError);
  const suites = useAppStore((s) => s.evalSuites);
  const suitesError = useAppStore((s) => s.evalSuitesError);
  const running = useAppStore((s) => s.evalActiveRunId !== null);
  const starting = useAppStore((s) => s.evalStarting);
  const startEval = useAppStore((s) => s.startEval);

  const [pickedModels, setPickedModels] = useState<ReadonlySet<string>>(new Set());
  const [extraModels, setExtraModels] = useState<EvalModelChoice[]>([]);
  const [pickedSuites, setPickedSuites] = useState<ReadonlySet<string>>(new Set());
  const [limitText, setLimitText] = useState('');
  const [limitProblem, setLimitProblem] = useState<string | null>(null);
  const [startError, setStartError] = useState<AppError | null>(null);
  const limitRef = useRef<HTMLInputElement>(null);
  const limitProblemId = useId();
  const blockerId = useId();

  const nodes = useAppStore((s) => s.nodes);
  const library = useMemo(
    () => [
      ...(listing ? evalModelChoices(listing.models, listing.catalog) : []),
      // Models on other computers beside the files: one run compares a model here with one there.
      ...(nodes ? nodeEvalChoices(nodes) : []),
    ],
    [listing, nodes],
  );
  const known = new Set(library.map((m) => m.path));
  const models = [...library, ...extraModels.filter((m) => !known.has(m.path))];
  const blocker = runBlocker({ models: pickedModels.size, suites: pickedSuites.size, running, starting });

  const toggle = (set: ReadonlySet<string>, value: string, on: boolean): ReadonlySet<string> => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (blocker) return;
    const limit = parseCaseLimit(limitText);
    if (!limit.ok) {
      setLimitProblem(limit.problem);
      limitRef.current?.focus();
      return;
    }
    setLimitProblem(null);
    setStartError(null);
    // The library's order, then paths typed by hand: the order the results' columns take.
    const chosen = models.filter((m) => pickedModels.has(m.path)).map((m) => m.path);
    const chosenSuites = (suites ?? []).filter((s) => pickedSuites.has(s.id)).map((s) => s.id);
    const failure = await startEval({
      models: chosen,
      suites: chosenSuites,
      ...(limit.value !== undefined ? { limit: limit.value } : {}),
    });
    if (failure) setStartError(failure);
  };

  return (
    <section className="settings-section" aria-labelledby="eval-run-heading" data-testid="eval-run-form">
      <h2 id="eval-run-heading">New run</h2>
      <form className="eval-form" onSubmit={(e) => void onSubmit(e)} noValidate>
        <fieldset className="eval-fieldset" data-testid="eval-models">
          <legend>Models</legend>
          {modelsError && <ErrorNotice error={modelsError} testId="eval-models-error" />}
          {listing === null && !modelsError && <p className="muted">Loading the models…</p>}
          {listing !== null && models.length === 0 && (
            <p className="muted" data-testid="eval-models-empty">
              No models in the library yet: add one on the Models page, or enter a GGUF path below.
            </p>
          )}
          <ul className="eval-choice-list">
            {models.map((model) => (
              <li key={model.path}>
                <label className="checkbox" title={model.url ?? model.path}>
                  <input
                    type="checkbox"
                    data-testid="eval-model-option"
                    data-path={model.path}
                    checked={pickedModels.has(model.path)}
                    onChange={(e) => setPickedModels(toggle(pickedModels, model.path, e.target.checked))}
                  />
                  <span>{model.name}</span>
                  {model.quant && <span className="badge badge-neutral eval-quant">{model.quant}</span>}
                  {/* Two files may carry the same name in their metadata: the file name tells them apart. */}
                  {model.url ? (
                    <span className="muted eval-model-file">{model.url}</span>
                  ) : (
                    model.name !== fileNameOf(model.path) && (
                      <span className="muted eval-model-file">{fileNameOf(model.path)}</span>
                    )
                  )}
                </label>
              </li>
            ))}
          </ul>
          <AddModelPath
            onAdd={(path) => {
              if (!known.has(path) && !extraModels.some((m) => m.path === path)) {
                const name = fileNameOf(path);
                setExtraModels([...extraModels, { path, name, quant: quantFromFileName(name) }]);
              }
              setPickedModels(toggle(pickedModels, path, true));
            }}
          />
        </fieldset>

        <fieldset className="eval-fieldset" data-testid="eval-suites">
          <legend>Suites</legend>
          {suitesError && <ErrorNotice error={suitesError} testId="eval-suites-error" />}
          {suites === null && !suitesError && <p className="muted">Loading the suites…</p>}
          <ul className="eval-choice-list">
            {(suites ?? []).map((suite) => (
              <li key={suite.id}>
                <label className="checkbox eval-suite-option">
                  <input
                    type="checkbox"
                    data-testid="eval-suite-option"
                    data-suite-id={suite.id}
                    checked={pickedSuites.has(suite.id)}
                    onChange={(e) => setPickedSuites(toggle(pickedSuites, suite.id, e.target.checked))}
                  />
                  <span>
                    <span className="eval-suite-name">{suite.name}</span>{' '}
                    <span className="muted">
                      ({suite.cases} {suite.cases === 1 ? 'case' : 'cases'})
                    </span>
                    <span className="eval-suite-description muted">{suite.description}</span>
                  </span>
                </label>
              </li>
            ))}
          </ul>
        </fieldset>

        <label className="field eval-limit">
          <span>At most this many cases per suite (optional)</span>
          <input
            ref={limitRef}
            type="text"
            inputMode="numeric"
            data-testid="eval-limit"
            value={limitText}
            placeholder="every case"
            aria-invalid={limitProblem ? true : undefined}
            aria-describedby={limitProblem ? limitProblemId : undefined}
            onChange={(e) => {
              setLimitText(e.target.value);
              if (limitProblem) setLimitProblem(null);
            }}
          />
          {limitProblem && (
            <span id={limitProblemId} className="field-problem" data-testid="eval-limit-problem">
              {limitProblem}
            </span>
          )}
        </label>

        {startError && (
          <ErrorNotice error={startError} onDismiss={() => setStartError(null)} testId="eval-start-error" />
        )}
        <div className="eval-run-actions">
          <Button
            type="submit"
            variant="primary"
            data-testid="eval-run"
            disabled={blocker !== null}
            aria-describedby={blocker ? blockerId : undefined}
          >
            {starting ? 'Starting…' : 'Run'}
          </Button>
          {blocker && (
            <span id={blockerId} className="muted" data-testid="eval-run-blocker">
              {blocker}
            </span>
          )}
        </div>
      </form>
    </section>
  );
}

/** A GGUF file outside the library, by path; it joins the list above, picked. */
function AddModelPath({ onAdd }: { onAdd: (path: string) => void }) {
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const problemId = useId();

  const add = () => {
    const parsed = parseModelPath(text);
    if (!parsed.ok) {
      setProblem(parsed.problem);
      inputRef.current?.focus();
      return;
    }
    setProblem(null);
    setText('');
    onAdd(parsed.value);
  };

  return (
    <div className="eval-add-path">
      <label className="field">
        <span>Or a GGUF file by path</span>
        <input
          ref={inputRef}
          type="text"
          data-testid="eval-model-path"
          value={text}
          placeholder="/path/to/model.gguf"
          spellCheck={false}
          autoComplete="off"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? problemId : undefined}
          onChange={(e) => {
            setText(e.target.value);
            if (problem) setProblem(null);
          }}
          onKeyDown={(e) => {
            // Enter adds the path rather than starting the run.
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        {problem && (
          <span id={problemId} className="field-problem" data-testid="eval-model-path-problem">
            {problem}
          </span>
        )}
      </label>
      <Button data-testid="eval-model-path-add" onClick={add}>
        Add
      </Button>
    </div>
  );
}
