import { readFileSync } from 'node:fs';
import { arch, availableParallelism, cpus, freemem, platform, totalmem } from 'node:os';
import { getLlamaGpuTypes, type Llama } from 'node-llama-cpp';
import type { BackendStatus, MachineReport } from '../../src-shared/contract/index.js';

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Physical cores from Linux's /proc/cpuinfo (distinct physical id + core id); null elsewhere or when it says nothing. */
export function physicalCoresFrom(cpuinfo: string): number | null {
  const cores = new Set<string>();
  let physical = '0';
  for (const line of cpuinfo.split('\n')) {
    const [key, value] = line.split(':').map((part) => part.trim());
    if (key === 'physical id') physical = value ?? '0';
    else if (key === 'core id') cores.add(`${physical}:${value ?? ''}`);
  }
  return cores.size > 0 ? cores.size : null;
}

function physicalCores(): number | null {
  if (platform() !== 'linux') return null;
  try {
    return physicalCoresFrom(readFileSync('/proc/cpuinfo', 'utf8'));
  } catch {
    return null;
  }
}

const backendName = (gpu: string | false) => (gpu === false ? 'cpu' : gpu);

/**
 * What this machine offers: CPU, memory, GPU and the llama.cpp backends. `llama` is the engine's runtime; when it
 * cannot be started, or a probe throws, the report says so in place instead of failing.
 */
export async function machineReport(llama: () => Promise<Llama>): Promise<MachineReport> {
  const list = cpus();
  const report: MachineReport = {
    platform: platform(),
    arch: arch(),
    cpu: {
      model: list[0]?.model.trim() || 'unknown',
      physicalCores: physicalCores(),
      logicalCores: Math.max(1, list.length),
      availableParallelism: availableParallelism(),
    },
    // os.freemem() is what the system can hand out without swapping (MemAvailable on Linux).
    memory: { totalBytes: totalmem(), freeBytes: freemem() },
    gpu: { backend: null, devices: [], vramTotalBytes: null, vramFreeBytes: null, error: null },
    backends: [],
    llamaCpp: { release: null, buildType: null },
  };

  let valid: (string | false)[] = [];
  let supported: (string | false)[] | undefined;
  let probeError: string | null = null;
  try {
    valid = await getLlamaGpuTypes('allValid');
    supported = await getLlamaGpuTypes('supported');
  } catch (error) {
    probeError = message(error);
  }

  let runtime: Llama | undefined;
  try {
    runtime = await llama();
  } catch (error) {
    report.gpu.error = `llama.cpp could not be started: ${message(error)}`;
  }
  if (runtime) {
    report.gpu.backend = backendName(runtime.gpu);
    report.llamaCpp = { release: runtime.llamaCppRelease.release, buildType: runtime.buildType };
    if (runtime.gpu !== false) {
      try {
        const vram = await runtime.getVramState();
        report.gpu.vramTotalBytes = vram.total;
        report.gpu.vramFreeBytes = vram.free;
        report.gpu.devices = await runtime.getGpuDeviceNames();
      } catch (error) {
        report.gpu.error = `The GPU could not be queried: ${message(error)}`;
      }
    }
  }

  const names = new Set<string>(['cpu', ...valid.map(backendName)]);
  if (runtime) names.add(backendName(runtime.gpu));
  report.backends = [...names].map((name): BackendStatus => {
    if (runtime && backendName(runtime.gpu) === name) return { name, status: 'in-use', reason: null };
    if (name === 'cpu') return { name, status: 'available', reason: null };
    if (supported === undefined) {
      return { name, status: 'unavailable', reason: `the backend probe failed: ${probeError ?? 'unknown error'}` };
    }
    if (supported.some((gpu) => backendName(gpu) === name)) {
      return {
        name,
        status: 'available',
        reason: runtime ? 'usable here; HOMEBODY_GPU chooses it' : null,
      };
    }
    return { name, status: 'unavailable', reason: `no ${name} driver or runtime library was found on this machine` };
  });
  if (!runtime) {
    report.backends = report.backends.map((b) =>
      b.status === 'unavailable' ? b : { ...b, reason: report.gpu.error ?? b.reason },
    );
  }
  return report;
}
