import { existsSync } from 'node:fs';
import { basename, join } from 'node:path';
import type {
  BenchResult,
  CatalogEntry,
  DoctorReport,
  ModelSettingsView,
  ModelState,
  ToolSandbox,
} from '../../src-shared/contract/index.js';
import { machineReport } from './hardware.js';
import type { LlamaEngine } from './llamaEngine.js';
import { kvShapeOf } from './kvShape.js';
import { fitModel, type FitInput } from './modelFit.js';
import { ensureBenchModel, runBench } from './speedBench.js';

export interface DoctorDeps {
  readonly engine: LlamaEngine;
  /** `<dataDir>/cache`: the generated benchmark model is kept there. */
  readonly cacheDir: string;
  /** `<dataDir>/models`: where downloaded catalog models are saved. */
  readonly modelsDir: string;
  readonly catalog: () => readonly CatalogEntry[];
  /** The file the model manager recorded for a catalog entry, when there is one on disk. */
  readonly catalogFile?: (catalogId: string) => string | null;
  readonly settings: () => ModelSettingsView;
  readonly lastBench: () => BenchResult | null;
  readonly saveBench: (bench: BenchResult) => void;
  /** The OS sandbox around the tool worker (the Host asks the tool executor). */
  readonly sandbox: () => Promise<ToolSandbox>;
}

/** The catalog model's file in the models folder (the download's default name), when it is there. */
export function downloadedPath(modelsDir: string, entry: CatalogEntry): string | null {
  const name = basename(entry.uri.split(/[?#]/)[0] ?? '');
  if (!name.toLowerCase().endsWith('.gguf')) return null;
  const path = join(modelsDir, name);
  return existsSync(path) ? path : null;
}

/** The machine report, each model's fit and speed, and the short benchmark on request. */
export class Doctor {
  private running: Promise<BenchResult> | undefined;

  constructor(private readonly deps: DoctorDeps) {}

  /** The catalog model's file: as the model manager recorded it, else under its download name in the models folder. */
  private fileOf(entry: CatalogEntry): string | null {
    const recorded = this.deps.catalogFile?.(entry.id);
    return recorded && existsSync(recorded) ? recorded : downloadedPath(this.deps.modelsDir, entry);
  }

  async report(): Promise<DoctorReport> {
    const machine = await machineReport(() => this.deps.engine.runtime());
    const settings = this.deps.settings();
    const bench = this.deps.lastBench();
    const onGpu = machine.gpu.backend !== null && machine.gpu.backend !== 'cpu' && settings.effective.gpuLayers !== 0;
    const memory = {
      freeRamBytes: machine.memory.freeBytes,
      freeVramBytes: onGpu ? machine.gpu.vramFreeBytes : null,
      threads: settings.effective.threads,
    };
    const contextFor = (train?: number) =>
      train ? Math.min(settings.effective.contextSize, train) : settings.effective.contextSize;

    const inputs: FitInput[] = [];
    const state: ModelState = this.deps.engine.state;
    if (state.status === 'ready') {
      const found = kvShapeOf(state.info.path);
      inputs.push({
        id: 'active',
        name: `${state.info.name} (loaded now)`,
        quantization: null,
        sizeBytes: state.info.sizeBytes,
        sizeSource: 'file',
        path: state.info.path,
        contextSize: state.info.contextSize,
        ...(found?.shape ? { shape: found.shape } : {}),
      });
    }
    for (const entry of this.deps.catalog()) {
      const path = this.fileOf(entry);
      const found = path ? kvShapeOf(path) : undefined;
      inputs.push({
        id: entry.id,
        name: entry.name,
        quantization: entry.quantization,
        sizeBytes: found?.bytes ?? entry.sizeBytes,
        sizeSource: found ? 'file' : 'catalog',
        path,
        contextSize: contextFor(found?.trainContextSize),
        ...(found?.shape ? { shape: found.shape } : {}),
      });
    }
    return {
      generatedAt: Date.now(),
      machine,
      models: inputs.map((input) => fitModel(input, memory, bench)),
      settings,
      bench,
      sandbox: await this.deps.sandbox(),
    };
  }

  /**
   * Runs the benchmark on a catalog model's downloaded file, else on the generated Qwen3-0.6B-shaped model. One runs at
   * a time: a second request while one runs gets the same result. A reply running meanwhile slows both.
   */
  bench(catalogId?: string, onPhase?: (phase: string) => void): Promise<BenchResult> {
    this.running ??= this.measure(catalogId, onPhase).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async measure(catalogId: string | undefined, onPhase?: (phase: string) => void): Promise<BenchResult> {
    const entry = catalogId ? this.deps.catalog().find((e) => e.id === catalogId) : undefined;
    const downloaded = entry ? this.fileOf(entry) : null;
    let modelPath = downloaded;
    if (!modelPath) {
      onPhase?.('generate');
      modelPath = ensureBenchModel(this.deps.cacheDir);
    }
    const llama = await this.deps.engine.runtime();
    const result = await runBench(llama, {
      modelPath,
      threads: this.deps.settings().effective.threads,
      catalogId: downloaded && entry ? entry.id : null,
      ...(onPhase ? { onPhase } : {}),
    });
    this.deps.saveBench(result);
    return result;
  }
}
