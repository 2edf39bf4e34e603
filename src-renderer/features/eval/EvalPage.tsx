import { useEffect } from 'react';
import { useAppStore } from '../../store/StoreContext.js';
import { EvalGatesSection } from './EvalGatesSection.js';
import { EvalProgressPanel } from './EvalProgressPanel.js';
import { EvalResults } from './EvalResults.js';
import { EvalRunForm } from './EvalRunForm.js';
import { EvalRunsList } from './EvalRunsList.js';
import './eval.css';

/** Candidate models on the same cases, compared under the same criteria; and the tools gated on the scores. */
export function EvalPage() {
  const loadEval = useAppStore((s) => s.loadEval);
  const loadNodes = useAppStore((s) => s.loadNodes);

  useEffect(() => {
    void loadEval();
    // The models on other computers are offered beside the files.
    void loadNodes();
  }, [loadEval, loadNodes]);

  return (
    <main className="main page eval-page" data-testid="eval-page" aria-labelledby="eval-heading">
      <header className="page-header">
        <h1 id="eval-heading">Evaluation</h1>
        <p className="muted">Run models on the same cases and compare them before trusting one with your tools.</p>
      </header>
      <EvalRunForm />
      <EvalProgressPanel />
      <EvalRunsList />
      <EvalResults />
      <EvalGatesSection />
    </main>
  );
}
