import { copyFileSync, mkdirSync, mkdtempSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DoctorReportSchema, HomebodyError, type ModelState } from '../../src-shared/contract/index.js';
import { DEFAULT_TEMPERATURE } from '../agent/chatRunner.js';
import { DEFAULT_MODEL_TEMPERATURE } from '../llm/modelSettings.js';
import { runCli } from '../testing/cliProcess.js';
import { createHost, type HostInternals } from './createHost.js';

// The Doctor reports the machine's own defaults: no thread count from the integration project's environment.
delete process.env.HOMEBODY_THREADS;

const model = inject('tinyModelPath');
const hosts: HostInternals[] = [];
afterAll(async () => {
  for (const host of hosts) await host.dispose();
});

async function newHost(dataDir: string, modelPath?: string): Promise<HostInternals> {
  const host = await createHost({
    dataDir,
    shell: 'cli',
    loadModelOnStart: modelPath !== undefined,
    ...(modelPath ? { modelPath } : {}),
    engineConfig: { gpu: false },
  });
  hosts.push(host);
  return host;
}

/**
 * The Host the doctor's report and benchmark share: its machine report (the GPU probes start processes) and llama.cpp
 * runtime are made once for both; the report is checked before the benchmark, so it has none yet.
 */
let doctorHost: Promise<{ host: HostInternals; dataDir: string }> | undefined;
function sharedDoctorHost(): Promise<{ host: HostInternals; dataDir: string }> {
  doctorHost ??= (async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-doctor-'));
    return { host: await newHost(dataDir), dataDir };
  })();
  return doctorHost;
}

/** Resolves with the first model state that passes `test`, the current one included. */
function stateWhere(host: HostInternals, test: (state: ModelState) => boolean): Promise<ModelState> {
  return new Promise((resolve) => {
    if (test(host.engine.state)) return resolve(host.engine.state);
    const off = host.subscribe((event) => {
      if (event.type === 'model.state' && test(event.state)) {
        off();
        resolve(event.state);
      }
    });
  });
}
const readyWith = (contextSize: number) => (state: ModelState) =>
  state.status === 'ready' && state.info.contextSize === contextSize;

describe('doctor', () => {
  it('reports this machine and every catalog model without throwing', async () => {
    const { host } = await sharedDoctorHost();
    const report = DoctorReportSchema.parse(await host.invoke('doctor.report', {}));
    const { machine } = report;
    expect(machine.cpu.logicalCores).toBeGreaterThanOrEqual(1);
    expect(machine.cpu.availableParallelism).toBe(availableParallelism());
    expect(machine.cpu.model.length).toBeGreaterThan(0);
    expect(machine.memory.totalBytes).toBeGreaterThan(0);
    expect(machine.memory.freeBytes).toBeLessThanOrEqual(machine.memory.totalBytes);
    expect(machine.backends.map((b) => b.name)).toContain('cpu');
    expect(machine.backends.filter((b) => b.status === 'in-use')).toHaveLength(1);
    for (const backend of machine.backends) {
      if (backend.status === 'unavailable') expect(backend.reason).toBeTruthy();
    }
    expect(machine.gpu.backend).not.toBeNull();

    const catalog = await host.invoke('model.catalog', {});
    expect(report.models.map((m) => m.id)).toEqual(catalog.map((e) => e.id));
    for (const fit of report.models) {
      // Every catalog name carries a parameter count and a known quantization: sizes are estimable.
      expect(fit.sizeBytes).toBeGreaterThan(0);
      expect(fit.requiredBytes).toBeGreaterThan(fit.sizeBytes!);
      expect(['yes', 'tight', 'no']).toContain(fit.fits);
      expect(fit.speed.kind).toBe('estimate');
      expect(fit.speed.decodeTokensPerSecond).toBeGreaterThan(0);
      expect(fit.speed.note).toMatch(/estimate/);
    }
    expect(report.bench).toBeNull();
    expect(report.settings.defaults.threads).toBe(availableParallelism());
  });

  it('benchmarks a downloaded catalog model and then reports it as measured, the others scaled', async () => {
    const { host, dataDir } = await sharedDoctorHost();
    const [entry] = await host.invoke('model.catalog', {});
    mkdirSync(join(dataDir, 'models'));
    // The tiny generated model stands in for the catalog file (the bench reads whatever file is there).
    copyFileSync(model, join(dataDir, 'models', basename(entry!.uri)));
    const bench = await host.invoke('doctor.bench', { catalogId: entry!.id });
    expect(bench).toMatchObject({ catalogId: entry!.id, synthetic: true, promptTokens: 63, generatedTokens: 32 });
    expect(bench.loadMs).toBeGreaterThan(0);
    expect(bench.promptTokensPerSecond).toBeGreaterThan(0);
    expect(bench.decodeTokensPerSecond).toBeGreaterThan(0);
    // Kept with the figures so a busy machine's low numbers are read for what they are.
    expect(bench.cores).toBe(availableParallelism());
    if (process.platform !== 'win32') expect(bench.loadAverage).toBeGreaterThanOrEqual(0);

    const report = await host.invoke('doctor.report', {});
    expect(report.bench).toEqual(bench);
    const [measured, ...others] = report.models;
    expect(measured).toMatchObject({ id: entry!.id, sizeSource: 'file', speed: { kind: 'measured' } });
    for (const other of others) expect(other.speed.kind).toBe('scaled');
  });

  it('`doctor --json` prints one JSON object', async () => {
    const result = await runCli(mkdtempSync(join(tmpdir(), 'hb-doctor-')), 'doctor', '--json');
    expect(result.code).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const report = DoctorReportSchema.parse(JSON.parse(lines[0]!));
    expect(report.models.length).toBeGreaterThan(0);
  });
});

describe('model settings', () => {
  it('validates, reloads in the background on a change, and applies saved settings at the next load', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'hb-settings-'));
    const host = await newHost(dataDir);
    const view = await host.invoke('model.settings', {});
    expect(view.saved).toEqual({});
    // The chat's own default temperature stays the default.
    expect(DEFAULT_MODEL_TEMPERATURE).toBe(DEFAULT_TEMPERATURE);
    expect(view.effective).toMatchObject({ threads: availableParallelism(), temperature: DEFAULT_TEMPERATURE });
    // gpu: false from the caller keeps every layer on the CPU.
    expect(view.overrides.gpuLayers).toMatchObject({ value: 0 });

    await expect(host.invoke('model.setSettings', { settings: { contextSize: 10 } })).rejects.toBeInstanceOf(
      HomebodyError,
    );
    await expect(host.invoke('model.setSettings', { settings: { threads: 1.5 } })).rejects.toThrow(/threads/);

    const opened = await host.invoke('model.open', { path: model });
    expect(opened.status).toBe('ready');
    expect(opened.status === 'ready' && opened.info.contextSize).toBe(view.defaults.contextSize);

    const reloaded = stateWhere(host, readyWith(2048));
    const saved = await host.invoke('model.setSettings', { settings: { contextSize: 2048, temperature: 0.1 } });
    expect(saved).toMatchObject({ saved: { contextSize: 2048, temperature: 0.1 }, reloading: true });
    expect(saved.effective).toMatchObject({ contextSize: 2048, temperature: 0.1 });
    await reloaded;
    expect(host.modelSettings.effective().temperature).toBe(0.1);

    // Temperature alone applies to the next reply: no reload.
    expect(
      (await host.invoke('model.setSettings', { settings: { contextSize: 2048, temperature: 0 } })).reloading,
    ).toBe(false);
    await host.dispose();

    // A new start loads the last model with the saved settings.
    const next = await newHost(dataDir, model);
    const state = await stateWhere(next, (s) => s.status === 'ready' || s.status === 'error');
    expect(state.status === 'ready' && state.info.contextSize).toBe(2048);
    expect((await next.invoke('model.state', {})).status).toBe('ready');

    const reset = stateWhere(next, readyWith(view.defaults.contextSize));
    const cleared = await next.invoke('model.setSettings', { settings: {} });
    expect(cleared).toMatchObject({ saved: {}, reloading: true, effective: view.effective });
    await reset;
  });
});
