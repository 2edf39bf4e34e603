/**
 * Tests only: `homebody serve` whose generated model plays a script (src-main/testing/scriptedEngine.ts), for the
 * end-to-end specs. `node build/tsc/src-main/testing/scriptedServe.js --script FILE [serve options]`, where FILE is
 * `{"prompt": [{"name": TOOL, "params": "ARGUMENTS AS JSON TEXT"}]}` (README.md, Tests, gives the rules: `*` in a
 * prompt). Everything else is the real browser mode, compiled as users get it.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { serve } from '../cli/serveCommand.js';
import { scriptedEngines, type Scripts } from './scriptedEngine.js';

const ScriptFileSchema = z.record(z.string(), z.array(z.object({ name: z.string(), params: z.string() })));

function readScripts(file: string): Scripts {
  return ScriptFileSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

const args = process.argv.slice(2);
const at = args.indexOf('--script');
const file = at >= 0 ? args[at + 1] : undefined;
if (at >= 0 && !file) throw new Error('--script needs a file');
const scripts = file ? readScripts(file) : {};
const rest = at >= 0 ? [...args.slice(0, at), ...args.slice(at + 2)] : args;
process.exitCode = await serve(rest, { createEngine: scriptedEngines(scripts) });
