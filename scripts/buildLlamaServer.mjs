#!/usr/bin/env node
// Builds llama.cpp's own llama-server from the source node-llama-cpp ships (a git bundle), once, into a cache
// outside the repository, and prints the binary's path. The benchmark runs it beside Homebody on the same file.
//
//   node scripts/buildLlamaServer.mjs            build if missing, print the path
//   node scripts/buildLlamaServer.mjs --check    print the path if built, exit 1 if not
//
// The cache folder is named after the bundle's hash, so a node-llama-cpp upgrade builds again.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
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

export async function llamaServerPath() {
  if (!existsSync(bundle)) throw new Error(`llama.cpp's source is missing: ${bundle} (run npm ci)`);
  return join(cacheRoot(), await bundleHash(), 'bin', 'llama-server');
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
  if (!existsSync(join(source, 'CMakeLists.txt'))) {
    rmSync(source, { recursive: true, force: true });
    run('git', ['clone', '--quiet', bundle, source], folder);
  }
  const jobs = String(Math.max(1, availableParallelism()));
  console.error(`building llama-server in ${build} (about 8 minutes on 2 cores)`);
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
      '-DGGML_NATIVE=ON',
      // One self-contained binary, so it can be moved into place when whole.
      '-DBUILD_SHARED_LIBS=OFF',
    ],
    folder,
  );
  run('cmake', ['--build', build, '--target', 'llama-server', '-j', jobs], folder);
  mkdirSync(dirname(binary), { recursive: true });
  // Through a rename, so an interrupted build never leaves a binary that looks finished.
  renameSync(join(build, 'bin', 'llama-server'), `${binary}.partial`);
  renameSync(`${binary}.partial`, binary);
  console.log(binary);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error) => {
    console.error(`buildLlamaServer: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
