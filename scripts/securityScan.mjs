#!/usr/bin/env node
// `npm run lint:electron`: Doyensec's electronegativity, a static checker for Electron security settings, over the
// main process (src-main) and the renderer's page (src-renderer/index.html, whose <meta> policy is the only CSP the
// scanner can read: the header is built in code). Prints every finding; fails on a HIGH one, on a silenced check
// nobody reviewed (securityScanReport.mjs), on a file it could not parse, and on a run that ran no check.
//
// It calls the scanner's runner rather than its command line: electronegativity 1.10.3 does not declare the
// `commander` it needs, and the one npm hoists here (10) no longer exposes options the way its CLI reads them, so
// `electronegativity -i ...` only prints its usage. The options are the CLI's `-i DIR -e VERSION -r -v false`; the
// findings are read from what the runner returns (see securityScanReport.mjs).
// The scanner tries to fetch its translations and Electron's release list; offline it warns and goes on.
//
// `--input DIR` scans DIR instead (the scan's own test uses it).
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findingsFromIssues, formatFindings, scanVerdict, suppressionsIn } from './securityScanReport.mjs';

const ROOT = path.resolve(fileURLToPath(new URL('..', import.meta.url)));
/** The scanner fetches from the network first; a hung fetch must not hang CI. */
const SCAN_TIMEOUT_MS = 5 * 60_000;

function electronVersion() {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const spec =
    pkg.optionalDependencies?.electron ?? pkg.devDependencies?.electron ?? pkg.dependencies?.electron ?? undefined;
  const version = /\d+\.\d+\.\d+/.exec(spec ?? '')?.[0];
  if (!version) throw new Error('package.json names no Electron version.');
  return version;
}

/** What the scan reads: the main process's sources and the renderer's page, copied so that nothing else is read. */
function stageApp(work) {
  const staged = path.join(work, 'app');
  fs.cpSync(path.join(ROOT, 'src-main'), path.join(staged, 'src-main'), { recursive: true });
  fs.mkdirSync(path.join(staged, 'src-renderer'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'src-renderer', 'index.html'), path.join(staged, 'src-renderer', 'index.html'));
  return staged;
}

function filesBelow(dir) {
  return fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.(ts|tsx|js|jsx|mjs|cjs|html|htm)$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath ?? entry.path, entry.name));
}

async function main() {
  const at = process.argv.indexOf('--input');
  const given = at === -1 ? undefined : process.argv[at + 1];
  const version = electronVersion();
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'homebody-scan-'));
  try {
    const input = given ? path.resolve(given) : stageApp(work);
    console.log(`electronegativity: Electron ${version}, ${given ? input : 'src-main and src-renderer/index.html'}`);
    const run = createRequire(import.meta.url)('@doyensec/electronegativity');
    const result = await (run.default ?? run)(
      { input, isRelative: true, isVerbose: false, electronVersionOverride: version },
      false,
    );
    const problems = [];
    for (const error of result.errors.filter((e) => !e.tolerable)) {
      problems.push(`could not parse ${path.relative(input, error.file)}: ${error.message}`);
    }
    const checks = (result.globalChecks ?? 0) + (result.atomicChecks ?? 0);
    if (checks === 0) {
      console.error('The scan ran no check: nothing was checked.');
      return 1;
    }
    const findings = findingsFromIssues(result.issues, input);
    console.log(`${findings.length} finding(s) in ${filesBelow(input).length} files:`);
    for (const line of formatFindings(findings)) console.log(`  ${line}`);
    const suppressions = filesBelow(input).flatMap((file) =>
      suppressionsIn(fs.readFileSync(file, 'utf8')).map((s) => ({
        ...s,
        file: path.relative(input, file).split(path.sep).join('/'),
      })),
    );
    for (const s of suppressions) console.log(`  silenced at ${s.file}:${s.line}: ${s.checks.join(', ')}`);
    problems.push(...scanVerdict(findings, suppressions).problems);
    if (problems.length > 0) {
      console.error(`\nThe Electron security scan failed:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
      return 1;
    }
    console.log('No HIGH finding.');
    return 0;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

setTimeout(() => {
  console.error(`The Electron security scan did not finish within ${SCAN_TIMEOUT_MS / 60_000} minutes.`);
  process.exit(1);
}, SCAN_TIMEOUT_MS).unref();

main().then(
  (code) => process.exit(code),
  (error) => {
    console.error('The Electron security scan failed to run:', error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
