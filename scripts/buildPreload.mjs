// Bundles the sandboxed preload into one CommonJS file. A sandboxed preload
// cannot load other files: it may only require a few built-in modules, and
// 'electron' is the only one it needs; the check below keeps it that way.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
const outfile = path.join(root, 'build', 'preload', 'preload.cjs');

const result = await build({
  entryPoints: [path.join(root, 'src-main', 'preload', 'preload.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['electron'],
  sourcemap: true,
  metafile: true,
  legalComments: 'none',
  logLevel: 'warning',
});

const outputs = Object.values(result.metafile.outputs);
const bundle = outputs.find((entry) => entry.entryPoint !== undefined);
const externals = outputs
  .flatMap((entry) => entry.imports)
  .filter((entry) => entry.external)
  .map((entry) => entry.path);
const forbidden = externals.filter((name) => name !== 'electron');
if (forbidden.length > 0) {
  console.error(`The preload may only require 'electron', but it requires: ${[...new Set(forbidden)].join(', ')}`);
  process.exit(1);
}
console.log(`preload: ${path.relative(root, outfile)}${bundle ? ` (${bundle.bytes} bytes)` : ''}`);
