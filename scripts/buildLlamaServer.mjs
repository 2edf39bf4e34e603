#!/usr/bin/env node
// Builds llama.cpp's own llama-server and ggml-rpc-server from the source node-llama-cpp ships (a git bundle), once,
// into a cache outside the repository, and prints llama-server's path. The benchmark runs it beside Homebody on the
// same file; the remote engine's tests run Homebody against it, and against it spreading a model over RPC workers.
//
//   node scripts/buildLlamaServer.mjs            build if missing, print the path
//   node scripts/buildLlamaServer.mjs --check    print the path if built, exit 1 if not
//
// The cache folder is named after the bundle's hash and the build's flags, so a node-llama-cpp upgrade, or a change
// of flags, builds again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bundle = join(root, 'node_modules', 'node-llama-cpp', 'llama', 'gitRelease.bundle');

function cacheRoot() {
  if (process.env.HOMEBODY_LLAMA_SERVER_CACHE) return process.env.HOMEBODY_LLAMA_SERVER_CACHE;
  const base = process.env.XDG_CACHE_HOME || join(homedir(), '.cache');
  return join(base, 'homebody', 'llama-server');
}

async function bundleHash() {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(bundle)) hash.update(chunk);
  return hash.digest('hex').slice(0, 16);
}

function run(command, args, cwd) {
  const result = spawnSync(command, args, { cwd, stdio: ['ignore', 'inherit', 'inherit'] });
  if (result.error) throw new Error(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/** Which flags the binaries were built with; raised when they change. 2: no AMX. 3: RPC, and ggml-rpc-server. */
const FLAGS_REVISION = 3;

/** ggml's instruction-set options, by the flag /proc/cpuinfo names for each. */
const X86_OPTIONS = [
  ['sse4_2', 'GGML_SSE42'],
  ['avx', 'GGML_AVX'],
  ['avx2', 'GGML_AVX2'],
  ['avx_vnni', 'GGML_AVX_VNNI'],
  ['bmi2', 'GGML_BMI2'],
  ['fma', 'GGML_FMA'],
  ['f16c', 'GGML_F16C'],
  ['avx512f', 'GGML_AVX512'],
  ['avx512vbmi', 'GGML_AVX512_VBMI'],
  ['avx512_vnni', 'GGML_AVX512_VNNI'],
  ['avx512_bf16', 'GGML_AVX512_BF16'],
];

/**
 * Code for this CPU, less Intel's AMX: ggml's AMX kernels crash (SIGSEGV in ggml_backend_amx_mul_mat) where the CPU
 * has AMX but the system does not hand its tile state to the process (a VM, a sandbox), and node-llama-cpp's own
 * binaries never use them, so the two engines run the same kind of kernels. `-march=native` would bring AMX back
 * whatever else is said, so on Linux x86 each instruction set the CPU reports is named instead; elsewhere (no AMX
 * there), native.
 */
function cpuOptions() {
  let flags;
  try {
    const line = readFileSync('/proc/cpuinfo', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('flags'));
    flags = line ? new Set(line.split(':')[1].trim().split(/\s+/)) : undefined;
  } catch {
    flags = undefined;
  }
  if (process.arch !== 'x64' || !flags) return ['-DGGML_NATIVE=ON'];
  return [
    '-DGGML_NATIVE=OFF',
    ...X86_OPTIONS.map(([flag, option]) => `-D${option}=${flags.has(flag) ? 'ON' : 'OFF'}`),
    '-DGGML_AMX_TILE=OFF',
    '-DGGML_AMX_INT8=OFF',
    '-DGGML_AMX_BF16=OFF',
  ];
}

export async function llamaServerPath() {
  if (!existsSync(bundle)) throw new Error(`llama.cpp's source is missing: ${bundle} (run npm ci)`);
  return join(cacheRoot(), `${await bundleHash()}-f${FLAGS_REVISION}`, 'bin', 'llama-server');
}

/** ggml's RPC worker, built beside llama-server (which is moved into place last, so its presence means both). */
export async function rpcServerPath() {
  return join(dirname(await llamaServerPath()), 'ggml-rpc-server');
}

/**
 * Takes the build's lock: true when this process holds it (and builds), false when another process built meanwhile.
 * A lock whose process has gone is taken over.
 */
async function holdLock(lock) {
  let waited = false;
  for (;;) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      process.on('exit', () => rmSync(lock, { force: true }));
      return !waited;
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
    }
    const holder = Number(readFileSync(lock, 'utf8'));
    if (!alive(holder)) {
      rmSync(lock, { force: true });
      continue;
    }
    if (!waited) console.error(`waiting for the build in process ${holder}`);
    waited = true;
    await new Promise((resolve) => setTimeout(resolve, 2000));
  }
}

function alive(pid) {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function main() {
  const binary = await llamaServerPath();
  if (existsSync(binary)) {
    console.log(binary);
    return;
  }
  if (process.argv.includes('--check')) {
    console.error(`llama-server is not built yet (expected at ${binary})`);
    process.exit(1);
  }
  const folder = dirname(dirname(binary));
  const source = join(folder, 'src');
  const build = join(folder, 'build');
  mkdirSync(folder, { recursive: true });
  // One build at a time (CI starts one in the background; a test asks for the binaries meanwhile): the others wait.
  if (!(await holdLock(join(folder, 'building.lock')))) {
    if (!existsSync(binary)) throw new Error('the build that ran meanwhile left no binary: see its output');
    console.log(binary);
    return;
  }
  if (!existsSync(join(source, 'CMakeLists.txt'))) {
    rmSync(source, { recursive: true, force: true });
    run('git', ['clone', '--quiet', bundle, source], folder);
  }
  const jobs = String(Math.max(1, availableParallelism()));
  console.error(`building llama-server and ggml-rpc-server in ${build} (about 8 minutes on 2 cores)`);
  run(
    'cmake',
    [
      '-S',
      source,
      '-B',
      build,
      '-G',
      'Ninja',
      '-DCMAKE_BUILD_TYPE=Release',
      '-DLLAMA_CURL=OFF',
      '-DLLAMA_BUILD_TESTS=OFF',
      '-DLLAMA_BUILD_EXAMPLES=OFF',
      ...cpuOptions(),
      // llama-server's --rpc, which spreads one model's layers over ggml-rpc-server workers.
      '-DGGML_RPC=ON',
      // One self-contained binary, so it can be moved into place when whole.
      '-DBUILD_SHARED_LIBS=OFF',
    ],
    folder,
  );
  run('cmake', ['--build', build, '--target', 'llama-server', 'ggml-rpc-server', '-j', jobs], folder);
  mkdirSync(dirname(binary), { recursive: true });
  // Through renames, llama-server last, so an interrupted build never leaves binaries that look finished.
  for (const name of ['ggml-rpc-server', 'llama-server']) {
    const target = join(dirname(binary), name);
    renameSync(join(build, 'bin', name), `${target}.partial`);
    renameSync(`${target}.partial`, target);
  }
  console.log(binary);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(`buildLlamaServer: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
