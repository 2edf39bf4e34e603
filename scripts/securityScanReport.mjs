// Reading electronegativity's CSV report and deciding whether the scan passes (scripts/securityScan.mjs runs the
// scan; src-main/app/securityScan.test.ts tests both). Kept free of I/O so that the rules are tested directly.

export const CSV_COLUMNS = ['issue', 'severity', 'confidence', 'filename', 'location', 'sample', 'description', 'url'];
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
 * Splits CSV text into rows of fields: commas, double-quoted fields with "" for a quote, CRLF or LF line ends.
 * @param {string} text
 * @returns {string[][]}
 */
export function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (quoted) throw new Error('The report ends inside a quoted field.');
  if (field !== '' || row.length > 0) {
    row.push(field);
    rows.push(row);
  }
  return rows.filter((r) => r.length > 1 || r[0] !== '');
}

/**
 * @typedef {{ id: string, severity: string, confidence: string, file: string, location: string, sample: string,
 *   description: string, url: string }} Finding
 */

/**
 * The findings of an electronegativity CSV report. Throws on a report of another shape (a new scanner version
 * that changed it must not pass by being misread).
 * @param {string} text
 * @returns {Finding[]}
 */
export function findingsFromCsv(text) {
  const [header, ...rows] = parseCsv(text);
  if (!header || header.map((h) => h.trim()).join(',') !== CSV_COLUMNS.join(',')) {
    throw new Error(`The report's header is not electronegativity's (${CSV_COLUMNS.join(', ')}).`);
  }
  return rows.map((row, index) => {
    if (row.length !== CSV_COLUMNS.length) {
      throw new Error(`Row ${index + 2} of the report has ${row.length} fields, not ${CSV_COLUMNS.length}.`);
    }
    const [id, severity, confidence, file, location, sample, description, url] = row;
    if (!SEVERITIES.includes(severity)) throw new Error(`Row ${index + 2} has an unknown severity: ${severity}.`);
    return { id, severity, confidence, file, location, sample, description, url };
  });
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
