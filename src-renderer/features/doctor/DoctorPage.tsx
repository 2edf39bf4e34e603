import { useEffect } from 'react';
import type { DoctorReport, ModelFit } from '../../../src-shared/contract/index.js';
import { Button } from '../../ui/Button.js';
import { ErrorNotice } from '../../ui/ErrorNotice.js';
import { useAppStore } from '../../store/StoreContext.js';
import { formatBytes, formatRate, speedKindLabel } from './doctorFormat.js';
import { DoctorNodesSection } from './DoctorNodesSection.js';
import { ModelSettingsForm } from './ModelSettingsForm.js';
import './doctor.css';

/** This computer, what each catalog model needs and how fast it should run, and the active model's settings. */
export function DoctorPage() {
  const report = useAppStore((s) => s.doctorReport);
  const loading = useAppStore((s) => s.doctorLoading);
  const error = useAppStore((s) => s.doctorError);
  const loadDoctor = useAppStore((s) => s.loadDoctor);

  useEffect(() => {
    void loadDoctor();
  }, [loadDoctor]);

  return (
    <main className="main page doctor-page" data-testid="doctor-page" aria-labelledby="doctor-heading">
      <header className="page-header">
        <h1 id="doctor-heading">Doctor</h1>
        <p className="muted">This computer, and what to expect from each model on it.</p>
      </header>
      {error && <ErrorNotice error={error} testId="doctor-error" />}
      {!report && loading && (
        <p className="muted" aria-busy="true">
          Looking at this computer…
        </p>
      )}
      {report && <MachineSection report={report} />}
      {report && <ModelsSection report={report} />}
      {report?.nodes && report.nodes.length > 0 && <DoctorNodesSection nodes={report.nodes} />}
      <ModelSettingsForm />
    </main>
  );
}

function MachineSection({ report }: { report: DoctorReport }) {
  const { machine } = report;
  const cores =
    machine.cpu.physicalCores === null
      ? `${machine.cpu.logicalCores} logical`
      : `${machine.cpu.physicalCores} physical, ${machine.cpu.logicalCores} logical`;
  const gpu = machine.gpu;
  return (
    <section className="settings-section" aria-labelledby="machine-heading" data-testid="doctor-machine">
      <h2 id="machine-heading">This computer</h2>
      <dl className="doctor-facts">
        <dt>Processor</dt>
        <dd data-testid="doctor-cpu">{machine.cpu.model}</dd>
        <dt>Cores</dt>
        <dd data-testid="doctor-cores">
          {cores} ({machine.cpu.availableParallelism} usable at once)
        </dd>
        <dt>Memory</dt>
        <dd data-testid="doctor-ram">
          {formatBytes(machine.memory.totalBytes)} in all, {formatBytes(machine.memory.freeBytes)} free
        </dd>
        <dt>Graphics</dt>
        <dd data-testid="doctor-gpu">
          {gpu.backend === null || gpu.backend === 'cpu' ? 'Not used (CPU only)' : gpu.backend}
          {gpu.devices.length > 0 && ` — ${gpu.devices.join(', ')}`}
          {gpu.vramTotalBytes ? `, ${formatBytes(gpu.vramFreeBytes)} of ${formatBytes(gpu.vramTotalBytes)} free` : ''}
          {gpu.error && <span className="field-problem"> {gpu.error}</span>}
        </dd>
        <dt>llama.cpp</dt>
        <dd>{machine.llamaCpp.release ?? 'unavailable'}</dd>
        <dt>Tool sandbox</dt>
        <dd data-testid="doctor-sandbox" data-kind={report.sandbox.kind}>
          {report.sandbox.summary}
          {report.sandbox.kind === 'none' && <span className="muted"> {report.sandbox.detail}</span>}
        </dd>
      </dl>
      <h3 className="doctor-subheading">Backends</h3>
      <ul className="doctor-backends">
        {machine.backends.map((backend) => (
          <li key={backend.name} data-testid="doctor-backend" data-backend={backend.name} data-status={backend.status}>
            <code>{backend.name}</code>{' '}
            <span className={`badge doctor-status-${backend.status}`}>
              {backend.status === 'in-use' ? 'in use' : backend.status}
            </span>
            {backend.reason && <span className="muted"> {backend.reason}</span>}
          </li>
        ))}
      </ul>
    </section>
  );
}

const FITS: Record<ModelFit['fits'], string> = {
  yes: 'Fits',
  tight: 'Fits, tight',
  no: 'Does not fit',
  unknown: 'Unknown',
};

function ModelsSection({ report }: { report: DoctorReport }) {
  const benchRunning = useAppStore((s) => s.benchRunning);
  const benchError = useAppStore((s) => s.benchError);
  const runBench = useAppStore((s) => s.runBench);
  const bench = report.bench;
  return (
    <section className="settings-section" aria-labelledby="doctor-models-heading">
      <h2 id="doctor-models-heading">Models on this computer</h2>
      <table className="tools-table doctor-models" data-testid="doctor-models">
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Needs</th>
            <th scope="col">Fits</th>
            <th scope="col">Speed (tokens/s)</th>
          </tr>
        </thead>
        <tbody>
          {report.models.map((model) => (
            <tr key={model.id} data-testid="doctor-model" data-model={model.id} data-fits={model.fits}>
              <th scope="row">
                {model.name}
                <span className="tool-description muted">
                  {formatBytes(model.sizeBytes)}
                  {model.sizeSource === 'estimate' ? ' (estimated from its parameters)' : ''}
                </span>
              </th>
              <td>
                {formatBytes(model.requiredBytes)}
                <span className="tool-description muted">with {model.contextSize} tokens of context</span>
              </td>
              <td>
                <span className={`badge doctor-fits-${model.fits}`}>{FITS[model.fits]}</span>
                <span className="tool-description muted">
                  {formatBytes(model.availableBytes)} free {model.memory === 'vram' ? 'VRAM' : 'RAM'}
                </span>
              </td>
              <td data-testid="doctor-speed" data-kind={model.speed.kind}>
                {formatRate(model.speed.decodeTokensPerSecond)} reply, {formatRate(model.speed.promptTokensPerSecond)}{' '}
                reading
                <span className="tool-description muted" title={model.speed.note}>
                  {speedKindLabel(model.speed.kind)}
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="doctor-bench">
        <Button
          variant="primary"
          data-testid="bench-button"
          disabled={benchRunning}
          aria-busy={benchRunning}
          onClick={() => void runBench()}
        >
          {benchRunning ? 'Measuring…' : 'Measure speed on this computer'}
        </Button>
        {benchRunning ? (
          <p className="muted" role="status" data-testid="bench-status">
            Loading a 0.6B model, reading 64 tokens and writing 32. This takes from seconds to a minute; the chat stays
            usable (and slower) meanwhile.
          </p>
        ) : bench ? (
          <p className="muted" data-testid="bench-result">
            Measured on {bench.synthetic ? 'a generated model with Qwen3-0.6B’s dimensions' : bench.modelName} (
            {formatBytes(bench.sizeBytes)}, {bench.threads} threads, {bench.gpu}): loaded in{' '}
            {(bench.loadMs / 1000).toFixed(1)} s, reads {formatRate(bench.promptTokensPerSecond)} and writes{' '}
            {formatRate(bench.decodeTokensPerSecond)} tokens per second.
            {bench.loadAverage !== null && bench.cores !== null && bench.loadAverage > bench.cores && (
              <span className="field-problem" data-testid="bench-busy">
                {' '}
                The computer was busy while measuring (load {bench.loadAverage.toFixed(1)} on {bench.cores} cores):
                these figures are low. Measure again when it is idle.
              </span>
            )}
          </p>
        ) : (
          <p className="muted">Speeds above are estimates until measured here.</p>
        )}
      </div>
      {benchError && <ErrorNotice error={benchError} testId="bench-error" />}
    </section>
  );
}
