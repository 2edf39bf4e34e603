import type { BenchResult, DoctorReport, ModelFit, NodeCheck } from '../../src-shared/contract/index.js';
import { dataDirFrom, parseSubcommand } from './args.js';
import { printJson, withCliHost } from './hostForCli.js';

export const DOCTOR_USAGE = `homebody doctor [--json] [--bench [--model-id ID]] [--data-dir DIR]
  This computer (CPU, cores, RAM, GPU, llama.cpp backends, the tools' OS sandbox) and, for each catalog model,
  whether it fits and the speed to expect. --bench measures load, prompt and decode speed here first (a generated
  0.6B model, or the catalog model ID's downloaded file); --json prints one object: the report, with "bench" the
  figures measured. Each model on another computer ("homebody nodes") is measured too: its round trip, first token
  and decode speed ("nodes" in --json).`;

const MB = 1e6;
const GB = 1e9;
const bytes = (n: number | null) =>
  n === null ? '?' : n >= GB ? `${(n / GB).toFixed(2)} GB` : `${Math.round(n / MB)} MB`;
const rate = (n: number | null) => (n === null ? '?' : `${n.toFixed(n < 10 ? 1 : 0)}`);

function modelLine(model: ModelFit): string {
  const size = `${bytes(model.sizeBytes)}${model.sizeSource === 'estimate' ? ' (estimated)' : ''}`;
  const fits = { yes: 'fits', tight: 'fits, tight', no: 'does not fit', unknown: 'fit unknown' }[model.fits];
  const speed = model.speed;
  return (
    `  ${model.name.padEnd(28)} ${size.padEnd(20)} ${fits} in ${model.memory.toUpperCase()} ` +
    `(needs ${bytes(model.requiredBytes)} with ${model.contextSize} tokens of context, ${bytes(model.availableBytes)} free)\n` +
    `  ${''.padEnd(28)} ${speed.kind}: ${rate(speed.promptTokensPerSecond)} prompt tok/s, ${rate(speed.decodeTokensPerSecond)} decode tok/s` +
    (speed.loadMs === null ? '' : `, load ${(speed.loadMs / 1000).toFixed(1)} s`) +
    ` (${speed.note})`
  );
}

/** A load average above the core count: other work took the CPU while measuring. */
export function benchWasBusy(bench: BenchResult): boolean {
  return bench.loadAverage !== null && bench.cores !== null && bench.loadAverage > bench.cores;
}

export function benchLines(bench: BenchResult): string {
  return (
    `Measured on ${bench.modelName}${bench.synthetic ? ' (generated, Qwen3-0.6B dimensions)' : ''}, ${bytes(bench.sizeBytes)}, ` +
    `${bench.threads} threads, ${bench.gpu}:\n` +
    `  load ${Math.round(bench.loadMs)} ms, prompt ${bench.promptTokensPerSecond.toFixed(0)} tok/s (${bench.promptTokens} tokens), ` +
    `decode ${bench.decodeTokensPerSecond.toFixed(1)} tok/s (${bench.generatedTokens} tokens)` +
    (benchWasBusy(bench)
      ? `\n  The computer was busy (load ${bench.loadAverage!.toFixed(1)} on ${bench.cores} cores): these figures are low; measure again when it is idle.`
      : '')
  );
}

export function formatReport(report: DoctorReport): string {
  const { machine, settings } = report;
  const cores = machine.cpu.physicalCores === null ? '' : `${machine.cpu.physicalCores} physical, `;
  const gpu = machine.gpu;
  const lines = [
    `CPU      ${machine.cpu.model} (${cores}${machine.cpu.logicalCores} logical, ${machine.cpu.availableParallelism} usable at once)`,
    `RAM      ${bytes(machine.memory.totalBytes)} total, ${bytes(machine.memory.freeBytes)} free`,
    `GPU      ${gpu.backend ?? 'unknown'}${gpu.devices.length ? ` (${gpu.devices.join(', ')})` : ''}` +
      (gpu.vramTotalBytes ? `, VRAM ${bytes(gpu.vramTotalBytes)} total, ${bytes(gpu.vramFreeBytes)} free` : '') +
      (gpu.error ? ` — ${gpu.error}` : ''),
    `llama.cpp ${machine.llamaCpp.release ?? 'unavailable'}${machine.llamaCpp.buildType ? ` (${machine.llamaCpp.buildType})` : ''}`,
    `Sandbox  ${report.sandbox.summary}${report.sandbox.kind === 'none' ? `\n         ${report.sandbox.detail}` : ''}`,
    'Backends',
    ...machine.backends.map((b) => `  ${b.name.padEnd(8)} ${b.status}${b.reason ? `: ${b.reason}` : ''}`),
    'Model settings (effective; default in brackets)',
    ...(['contextSize', 'gpuLayers', 'threads', 'temperature'] as const).map((key) => {
      const override = settings.overrides[key];
      return `  ${key.padEnd(12)} ${String(settings.effective[key])} [${String(settings.defaults[key])}]${override ? ` from ${override.source}` : ''}`;
    }),
    'Models',
    ...report.models.map(modelLine),
  ];
  if (report.bench) lines.push(benchLines(report.bench));
  else lines.push('Speeds are estimates; run "homebody doctor --bench" to measure this computer.');
  if (report.nodes?.length) lines.push('Models on other computers', ...report.nodes.map(nodeLine));
  return lines.join('\n');
}

/** One node as measured: round trip and speed, or why it could not be measured. */
export function nodeLine(check: NodeCheck): string {
  const where = `  ${check.label} (${check.url}), ${check.model}: `;
  if (check.error) return `${where}not measured: ${check.error.message}`;
  const speed = check.tokensPerSecond === null ? 'speed unknown' : `decode ${check.tokensPerSecond.toFixed(1)} tok/s`;
  const first = check.ttftMs === null ? '' : `, first token ${Math.round(check.ttftMs)} ms`;
  return `${where}round trip ${check.roundTripMs} ms${first}, ${speed} (${check.completionTokens} tokens)`;
}

export async function doctorCommand(args: string[]): Promise<number> {
  const { values } = parseSubcommand(args, {
    json: { type: 'boolean', default: false },
    bench: { type: 'boolean', default: false },
    'model-id': { type: 'string' },
  });
  return withCliHost(dataDirFrom(values), async (host) => {
    if (values.bench) {
      const off = host.subscribe((event) => {
        if (event.type === 'doctor.progress') process.stderr.write(`doctor: benchmark: ${event.phase}…\n`);
      });
      try {
        await host.invoke('doctor.bench', values['model-id'] ? { catalogId: values['model-id'] } : {});
      } finally {
        off();
      }
    }
    const report = await host.invoke('doctor.report', {});
    if (values.json) printJson(report);
    else console.log(formatReport(report));
    return 0;
  });
}
