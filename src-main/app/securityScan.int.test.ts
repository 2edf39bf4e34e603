import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findingsFromIssues,
  formatFindings,
  REVIEWED_SUPPRESSIONS,
  scanVerdict,
  suppressionsIn,
  type Finding,
} from '../../scripts/securityScanReport.mjs';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
// Spelled apart so that the scan of src-main does not take this file's fixtures for real suppressions.
const ENG_DISABLE = ['eng', 'disable'].join('-');

/** Issues as electronegativity 1.10.3's runner returns them (files relative with isRelative, 'N/A' for global checks). */
const ISSUES = [
  {
    id: 'CSP_GLOBAL_CHECK',
    file: 'src-renderer/index.html',
    severity: { value: 1, name: 'LOW' },
    confidence: { value: 1, name: 'FIRM' },
    location: { line: 5, column: 0 },
    sample: "default-src 'none'; script-src 'self'",
    description: 'One or more CSP directives detected seems to be vulnerable',
  },
  {
    id: 'OPEN_EXTERNAL_JS_CHECK',
    file: '/scan/src-main/app/x.ts',
    severity: { value: 2, name: 'MEDIUM' },
    confidence: { value: 0, name: 'TENTATIVE' },
    location: { line: 58, column: 18 },
    sample: 'await shell.openExternal(url, { a: "" });',
    description: 'Review the use of openExternal',
  },
  {
    id: 'CONTEXT_ISOLATION_JS_CHECK',
    file: 'N/A',
    severity: { value: 3, name: 'HIGH' },
    confidence: { value: 1, name: 'FIRM' },
    location: { line: 0, column: 0 },
    description: 'Review the use of the contextIsolation option',
  },
];

function finding(id: string, severity: string): Finding {
  return { id, severity, confidence: 'FIRM', file: 'a.ts', location: '1:0', sample: '', description: 'd', url: 'u' };
}

describe('the scan report', () => {
  it("reads the runner's findings, with files relative to the folder scanned", () => {
    const findings = findingsFromIssues(ISSUES, '/scan/');
    expect(findings.map((f) => [f.id, f.severity, f.file, f.location])).toEqual([
      ['CSP_GLOBAL_CHECK', 'LOW', 'src-renderer/index.html', '5:0'],
      ['OPEN_EXTERNAL_JS_CHECK', 'MEDIUM', 'src-main/app/x.ts', '58:18'],
      ['CONTEXT_ISOLATION_JS_CHECK', 'HIGH', 'N/A', '0:0'],
    ]);
    expect(findings[1]?.sample).toBe('await shell.openExternal(url, { a: "" });');
    expect(findings[2]?.url).toBe('https://github.com/doyensec/electronegativity/wiki/CONTEXT_ISOLATION_JS_CHECK');
    expect(findingsFromIssues([], '/scan')).toEqual([]);
    expect(formatFindings(findings)[0]).toMatch(/^HIGH +FIRM +CONTEXT_ISOLATION_JS_CHECK/);
  });

  it('refuses findings of another shape rather than misread them', () => {
    expect(() => findingsFromIssues([{ id: 'A', severity: 'HIGH' }], '/scan')).toThrow(/shape/);
    expect(() => findingsFromIssues([{ id: 'A', severity: { name: 'SEVERE' } }], '/scan')).toThrow(/shape/);
    expect(() => findingsFromIssues([null], '/scan')).toThrow(/shape/);
  });
});

describe('scanVerdict', () => {
  it('fails on any HIGH finding and passes MEDIUM and LOW ones', () => {
    expect(scanVerdict([finding('A', 'MEDIUM'), finding('B', 'LOW')], [])).toEqual({ passed: true, problems: [] });
    const verdict = scanVerdict([finding('A', 'MEDIUM'), finding('NODE_INTEGRATION_JS_CHECK', 'HIGH')], []);
    expect(verdict.passed).toBe(false);
    expect(verdict.problems).toEqual([expect.stringMatching(/^HIGH NODE_INTEGRATION_JS_CHECK in a\.ts:1:0/)]);
  });

  it('fails on a silenced check nobody reviewed, also one added beside reviewed ones', () => {
    const reviewed = [{ file: 'src-main/app/w.ts', checks: ['SANDBOX_JS_CHECK'], why: 'tested elsewhere' }];
    const ok = [{ file: 'src-main/app/w.ts', line: 3, checks: ['SANDBOX_JS_CHECK'] }];
    expect(scanVerdict([], ok, reviewed).passed).toBe(true);
    const extra = [{ file: 'src-main/app/w.ts', line: 3, checks: ['SANDBOX_JS_CHECK', 'NODE_INTEGRATION_JS_CHECK'] }];
    expect(scanVerdict([], extra, reviewed).problems).toEqual([
      expect.stringMatching(/w\.ts:3 silences NODE_INTEGRATION_JS_CHECK without review/),
    ]);
    const elsewhere = [{ file: 'src-main/app/other.ts', line: 9, checks: ['SANDBOX_JS_CHECK'] }];
    expect(scanVerdict([], elsewhere, reviewed).passed).toBe(false);
  });

  it('finds inline suppressions the way the scanner reads them', () => {
    const text = [
      'a();',
      `new BrowserWindow(o); // ${ENG_DISABLE} SANDBOX_JS_CHECK, auxclick_js_check`,
      `<!-- ${ENG_DISABLE} CSP_HTML_CHECK -->`,
    ];
    expect(suppressionsIn(text.join('\n'))).toEqual([
      { line: 2, checks: ['SANDBOX_JS_CHECK', 'AUXCLICK_JS_CHECK'] },
      { line: 3, checks: ['CSP_HTML_CHECK'] },
    ]);
  });

  it("lists exactly the suppressions in Homebody's sources", () => {
    const listed = REVIEWED_SUPPRESSIONS.map((r) => ({ file: r.file, checks: [...r.checks] }));
    const found = listed.map((r) => ({
      file: r.file,
      checks: suppressionsIn(readFileSync(path.join(ROOT, r.file), 'utf8')).flatMap((s) => s.checks),
    }));
    expect(found).toEqual(listed);
    for (const r of REVIEWED_SUPPRESSIONS) expect(r.why.length).toBeGreaterThan(20);
  });
});

describe('scripts/securityScan.mjs', () => {
  it('fails on a HIGH finding and on an unreviewed suppression, naming both', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'hb-scan-'));
    writeFileSync(
      path.join(dir, 'window.ts'),
      [
        "import { BrowserWindow } from 'electron';",
        'export const w = new BrowserWindow({ webPreferences: { contextIsolation: false, sandbox: true } });',
        `export const v = new BrowserWindow({ webPreferences: { sandbox: false } }); // ${ENG_DISABLE} SANDBOX_JS_CHECK`,
        '',
      ].join('\n'),
    );
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'securityScan.mjs'), '--input', dir], {
      encoding: 'utf8',
      timeout: 110_000,
    });
    const output = `${run.stdout}\n${run.stderr}`;
    expect(run.status, output).toBe(1);
    expect(output).toMatch(/HIGH CONTEXT_ISOLATION_JS_CHECK in window\.ts:2/);
    expect(output).toMatch(/window\.ts:3 silences SANDBOX_JS_CHECK without review/);
  });
});
