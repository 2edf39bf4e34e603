/**
 * The evaluation case, as every suite becomes it: Homebody's own JSON suites, BFCL's JSON Lines files, and cases
 * recorded from history. The expected calls use BFCL's ground-truth form, so one scorer serves them all.
 */
import { z } from 'zod';
import { EvalKindSchema, type EvalKind } from '../../src-shared/contract/index.js';

/** `{toolName: {argument: [allowed values]}}`; `""` among the allowed values means the argument may be left out. */
export const ExpectedCallSchema = z
  .record(z.string().min(1), z.record(z.string(), z.array(z.unknown())))
  .refine((call) => Object.keys(call).length === 1, 'an expected call names exactly one tool');
export type ExpectedCall = Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>>;

/** A tool defined by the case itself (as BFCL's are): never run, its calls get `results` or a neutral answer. */
export const CaseToolSchema = z
  .object({
    name: z.string().min(1).max(200),
    description: z.string().max(10_000).default(''),
    /** JSON Schema, or BFCL's dialect of it (`dict`, `float`, `tuple`, `any`). */
    parameters: z.record(z.string(), z.unknown()).default({ type: 'object', properties: {} }),
    risk: z.enum(['read', 'write', 'irreversible']).optional(),
  })
  .strict();
export type CaseTool = z.infer<typeof CaseToolSchema>;

/** What the first call of a tool is answered with, instead of running it: a failure, or a given result. */
export const ScriptedResultSchema = z.union([
  z.object({ error: z.string().min(1).max(10_000) }).strict(),
  z.object({ result: z.unknown() }).strict(),
]);
export type ScriptedResult = z.infer<typeof ScriptedResultSchema>;

const TurnSchema = z.object({ role: z.enum(['user', 'assistant']), text: z.string().max(100_000) }).strict();

/** How a case's calls are compared with the expected ones (BFCL's checkers). */
export type MatchRule =
  /** Exactly one call, matching the one expected (BFCL `simple`). */
  | 'simple'
  /** Exactly as many calls as expected; the first must match the first expected (BFCL `multiple`). */
  | 'multiple'
  /** Exactly as many calls as expected, each matching a different expected one, in any order (BFCL `parallel`). */
  | 'parallel'
  /** No call at all (BFCL `irrelevance`; Homebody's `none` and `ask`). */
  | 'no-call'
  /** At least one call, whatever it is (BFCL `live_relevance`). */
  | 'any-call';

export const HomebodyCaseSchema = z
  .object({
    id: z
      .string()
      .min(1)
      .max(64)
      .regex(/^[A-Za-z0-9_.-]+$/, 'letters, digits, "_", "." and "-"'),
    kind: EvalKindSchema,
    /** files, calendar, mail, notes, device, web, customer-ops, ... (free text, for grouping). */
    domain: z.string().max(40).optional(),
    /** Replaces Homebody's system prompt for this case. */
    system: z.string().max(20_000).optional(),
    /** Earlier turns, oldest first (a change of intent lives here). */
    history: z.array(TurnSchema).max(50).default([]),
    /** The user's turn the model answers. */
    prompt: z.string().min(1).max(100_000),
    /** A built-in tool by name (run against the fixtures), or a tool defined here. */
    tools: z.array(z.union([z.string().min(1), CaseToolSchema])).max(64),
    /** The calls that are right, BFCL style; empty for `none` and `ask`. */
    expected: z.array(ExpectedCallSchema).max(32).default([]),
    /** First call of a tool answered with this (a failure for `recovery`, injected text for `injection`). */
    results: z.record(z.string(), ScriptedResultSchema).default({}),
    /** `injection`: tools whose call means the injected instructions worked. */
    unsafe: z.array(z.string()).default([]),
    /** Why this case exists, for people reading the report. */
    note: z.string().max(2000).optional(),
  })
  .strict()
  .superRefine((c, ctx) => {
    const problem = kindProblem(c.kind, c.expected.length, c.results, c.unsafe);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });
export type HomebodyCase = z.infer<typeof HomebodyCaseSchema>;

function kindProblem(
  kind: EvalKind,
  expected: number,
  results: Readonly<Record<string, ScriptedResult>>,
  unsafe: readonly string[],
): string | undefined {
  switch (kind) {
    case 'single':
      return expected === 1 ? undefined : 'a "single" case expects exactly one call';
    case 'several':
      return expected >= 2 ? undefined : 'a "several" case expects two calls or more';
    case 'none':
    case 'ask':
      return expected === 0 ? undefined : `a "${kind}" case expects no call`;
    case 'recovery':
      return Object.values(results).some((r) => 'error' in r) && expected >= 1
        ? undefined
        : 'a "recovery" case needs a result with an error and the expected calls after it';
    case 'injection':
      return unsafe.length > 0 ? undefined : 'an "injection" case names the unsafe tools';
    case 'multi-turn':
      return undefined;
    default:
      return kind satisfies never;
  }
}

export const HomebodySuiteSchema = z
  .object({
    format: z.literal('homebody-eval'),
    version: z.literal(1),
    name: z.string().min(1).max(200),
    description: z.string().max(5000).default(''),
    cases: z.array(HomebodyCaseSchema).min(1).max(10_000),
  })
  .strict();
export type HomebodySuite = z.infer<typeof HomebodySuiteSchema>;

/** A case as the runner takes it, whatever file it came from. */
export interface EvalCase {
  readonly id: string;
  /** An EvalKind for Homebody cases, the BFCL category for BFCL cases. */
  readonly category: string;
  readonly suite: string;
  readonly domain?: string;
  readonly system?: string;
  readonly history: ReadonlyArray<{ readonly role: 'user' | 'assistant'; readonly text: string }>;
  readonly prompt: string;
  /** Built-in tool names (run against the fixtures), or tools the case defines. */
  readonly tools: ReadonlyArray<string | CaseTool>;
  readonly expected: readonly ExpectedCall[];
  readonly rule: MatchRule;
  readonly results: Readonly<Record<string, ScriptedResult>>;
  readonly unsafe: readonly string[];
  /** A tool-error case: the calls after the failed one are the ones compared. */
  readonly recovery: boolean;
}

/** The BFCL checker each Homebody kind is scored with. */
export function ruleForKind(kind: EvalKind): MatchRule {
  switch (kind) {
    case 'single':
      return 'simple';
    case 'none':
    case 'ask':
      return 'no-call';
    case 'several':
    case 'recovery':
    case 'injection':
    case 'multi-turn':
      return 'parallel';
    default:
      return kind satisfies never;
  }
}

export function fromHomebodyCase(c: HomebodyCase, suite: string): EvalCase {
  return {
    id: c.id,
    category: c.kind,
    suite,
    ...(c.domain ? { domain: c.domain } : {}),
    ...(c.system ? { system: c.system } : {}),
    history: c.history,
    prompt: c.prompt,
    tools: c.tools,
    expected: c.expected as ExpectedCall[],
    rule: ruleForKind(c.kind),
    results: c.results,
    unsafe: c.unsafe,
    recovery: c.kind === 'recovery',
  };
}

/** The name a tool goes by in a case (a built-in's own name, or the definition's). */
export function caseToolName(tool: string | CaseTool): string {
  return typeof tool === 'string' ? tool : tool.name;
}

/** The expected calls for people: `read_text(path="notes/a.md")`, alternatives joined by "or". */
export function describeExpected(c: Pick<EvalCase, 'expected' | 'rule'>): string {
  if (c.rule === 'no-call') return 'no call';
  if (c.rule === 'any-call') return 'any call (a tool fits)';
  const calls = c.expected.map((call) => {
    const [name, args] = Object.entries(call)[0] ?? ['?', {}];
    const shown = Object.entries(args).map(([arg, allowed]) => {
      const values = allowed.map((v) => (v === '' ? '(may be left out)' : JSON.stringify(v)));
      return `${arg}=${values.join(' or ')}`;
    });
    return `${name}(${shown.join(', ')})`;
  });
  return c.rule === 'parallel' && calls.length > 1 ? `in any order: ${calls.join('; ')}` : calls.join('; ');
}
