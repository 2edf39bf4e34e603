// Reading electronegativity's findings and deciding whether the scan passes (scripts/securityScan.mjs runs the
// scan; src-main/app/securityScan.int.test.ts tests both). Kept free of I/O so that the rules are tested directly.
//
// The findings are taken from what the scanner's runner returns, not from its CSV report: version 1.10.3 writes the
// CSV's header and its rows with two unawaited fs.writeFile calls, one truncating, so the file is sometimes torn.

export const SEVERITIES = ['INFORMATIONAL', 'LOW', 'MEDIUM', 'HIGH'];

/**
 * Findings the scanner cannot see are fixed, silenced inline with `eng-disable`. Each silenced check must be listed
 * here with the reason, so that a new `eng-disable` fails the scan until someone reviews it.
 * @type {ReadonlyArray<{ file: string, checks: readonly string[], why: string }>}
 */
export const REVIEWED_SUPPRESSIONS = [
  {
    file: 'src-main/app/mainWindow.ts',
    checks: ['CONTEXT_ISOLATION_JS_CHECK', 'SANDBOX_JS_CHECK', 'AUXCLICK_JS_CHECK'],
    why:
      'webPreferences come from mainWindowWebPreferences() (contextIsolation, sandbox, Auxclick disabled), which ' +
      'the scanner cannot follow into; mainWindowPreferences.test.ts checks every key',
  },
];

/**
 * The findings of one scan, from the runner's issues (`{ id, severity: { name }, confidence: { name }, file,
 * location: { line, column }, sample, description }`), with files relative to the scanned folder. Throws on an issue
 * of another shape (a new scanner version that changed it must not pass by being misread).
 * @param {unknown[]} issues
 * @param {string} input the folder scanned
 * @returns {Finding[]}
 */
export function findingsFromIssues(issues, input) {
  return issues.map((issue, index) => {
    const i = /** @type {any} */ (issue);
    const severity = i?.severity?.name;
    if (typeof i?.id !== 'string' || !SEVERITIES.includes(severity)) {
      throw new Error(`Finding ${index + 1} is not of electronegativity's shape (id and a known severity).`);
    }
    const file = typeof i.file === 'string' && i.file !== '' ? relativeTo(input, i.file) : 'N/A';
    return {
      id: i.id,
      severity,
      confidence: String(i.confidence?.name ?? ''),
      file,
      location: `${i.location?.line ?? 0}:${i.location?.column ?? 0}`,
      sample: typeof i.sample === 'string' ? i.sample : '',
      description: String(i.description ?? ''),
      url: `https://github.com/doyensec/electronegativity/wiki/${i.id}`,
    };
  });
}

/** `file` relative to `root`, with forward slashes; as given when it is not below `root`. */
function relativeTo(root, file) {
  const base = root.replace(/[\\/]+$/, '');
  const normalized = file.split('\\').join('/');
  const prefix = `${base.split('\\').join('/')}/`;
  return normalized.startsWith(prefix) ? normalized.slice(prefix.length) : normalized;
}

/**
 * The `eng-disable` comments in one file's text (electronegativity's inline suppressions), by line.
 * @param {string} text
 * @returns {Array<{ line: number, checks: string[] }>}
 */
export function suppressionsIn(text) {
  const found = [];
  text.split('\n').forEach((line, index) => {
    const match = /(?:\/\/|\/\*|<!--)[ \t]*eng-disable[ \t]+([\w \t,]+)/i.exec(line);
    if (match)
      found.push({
        line: index + 1,
        checks: match[1]
          .trim()
          .split(/[\s,]+/)
          .map((c) => c.toUpperCase()),
      });
  });
  return found;
}

/**
 * Whether the scan passes: no HIGH finding, and every inline suppression reviewed.
 * @param {Finding[]} findings
 * @param {Array<{ file: string, line: number, checks: string[] }>} suppressions
 * @param {typeof REVIEWED_SUPPRESSIONS} reviewed
 * @returns {{ passed: boolean, problems: string[] }}
 */
export function scanVerdict(findings, suppressions, reviewed = REVIEWED_SUPPRESSIONS) {
  const problems = [];
  for (const f of findings.filter((f) => f.severity === 'HIGH')) {
    problems.push(`HIGH ${f.id} in ${f.file}:${f.location}: ${f.description}`);
  }
  for (const s of suppressions) {
    const allowed = reviewed.filter((r) => r.file === s.file).flatMap((r) => r.checks);
    for (const check of s.checks.filter((c) => !allowed.includes(c))) {
      problems.push(
        `${s.file}:${s.line} silences ${check} without review: fix the finding, or list it with the reason in ` +
          'REVIEWED_SUPPRESSIONS (scripts/securityScanReport.mjs)',
      );
    }
  }
  return { passed: problems.length === 0, problems };
}

/**
 * One line per finding, most severe first.
 * @param {Finding[]} findings
 * @returns {string[]}
 */
export function formatFindings(findings) {
  return [...findings]
    .sort((a, b) => SEVERITIES.indexOf(b.severity) - SEVERITIES.indexOf(a.severity) || a.id.localeCompare(b.id))
    .map((f) => {
      const sample = f.sample && f.sample !== 'N/A' ? `  ${f.sample.trim().slice(0, 100)}` : '';
      return `${f.severity.padEnd(13)} ${f.confidence.padEnd(9)} ${f.id}  ${f.file}:${f.location}${sample}`;
    });
}
