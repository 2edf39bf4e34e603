// Types of securityScanReport.mjs, for the TypeScript test that imports it.
export declare const SEVERITIES: readonly string[];
export interface ReviewedSuppression {
  readonly file: string;
  readonly checks: readonly string[];
  readonly why: string;
}
export declare const REVIEWED_SUPPRESSIONS: readonly ReviewedSuppression[];
export interface Finding {
  id: string;
  severity: string;
  confidence: string;
  file: string;
  location: string;
  sample: string;
  description: string;
  url: string;
}
export interface Suppression {
  file: string;
  line: number;
  checks: string[];
}
export declare function findingsFromIssues(issues: readonly unknown[], input: string): Finding[];
export declare function suppressionsIn(text: string): Array<{ line: number; checks: string[] }>;
export declare function scanVerdict(
  findings: Finding[],
  suppressions: Suppression[],
  reviewed?: readonly ReviewedSuppression[],
): { passed: boolean; problems: string[] };
export declare function formatFindings(findings: Finding[]): string[];
