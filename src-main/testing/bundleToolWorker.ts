import { build } from 'esbuild';
import { join, resolve } from 'node:path';

/**
 * The tool worker bundled to one JavaScript file in `dir`, as a packaged app would run it: compiled JS runs under
 * Node's permission model (tsx cannot), so tests that prove the wall use this. Returns the bundle's path.
 */
export async function bundleToolWorker(dir: string): Promise<string> {
  const outfile = join(dir, 'toolWorker.mjs');
  await build({
    entryPoints: [resolve(import.meta.dirname, '../tools/sandbox/toolWorker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
    // CommonJS dependencies (the mail parser's) call require(), which an ES module bundle must provide.
    banner: { js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);" },
  });
  return outfile;
}
