/** What one section of `npm run bench` (history now; the model later) reports. */
export interface SectionReport {
  /** The heading of the section's part of the table. */
  readonly title: string;
  /** Flat figures, keyed as they appear in the JSON (e.g. historySearchP95Ms): finite numbers only. */
  readonly figures: Readonly<Record<string, number>>;
  /** How the table shows each figure; a figure without one is shown by its key. */
  readonly labels: Readonly<Record<string, { readonly label: string; readonly unit?: string }>>;
  /** Anything else worth keeping in the JSON (e.g. the slowest queries), keyed like the figures. */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** Lines shown under the section's figures in the table. */
  readonly notes?: readonly string[];
}

/** The one JSON object of `--json`: every section's figures and extras, merged flat. */
export function toJson(sections: readonly SectionReport[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const section of sections) Object.assign(out, section.figures, section.extra ?? {});
  return out;
}

function formatNumber(value: number): string {
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  return value.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
}

/** A readable table: per section, one line per figure with its label, value, unit and JSON key. */
export function formatTable(sections: readonly SectionReport[]): string {
  const lines: string[] = [];
  for (const section of sections) {
    lines.push(section.title);
    const rows = Object.entries(section.figures).map(([key, value]) => {
      const { label, unit } = section.labels[key] ?? { label: key };
      return { label, value: formatNumber(value), unit: unit ?? '', key };
    });
    const width = (pick: (r: (typeof rows)[number]) => string) => Math.max(0, ...rows.map((r) => pick(r).length));
    const [labelWidth, valueWidth, unitWidth] = [width((r) => r.label), width((r) => r.value), width((r) => r.unit)];
    for (const r of rows) {
      lines.push(
        `  ${r.label.padEnd(labelWidth)}  ${r.value.padStart(valueWidth)} ${r.unit.padEnd(unitWidth)}  ${r.key}`.trimEnd(),
      );
    }
    for (const note of section.notes ?? []) lines.push(`  ${note}`);
    lines.push('');
  }
  return lines.join('\n');
}
