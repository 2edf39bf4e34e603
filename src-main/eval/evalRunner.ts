/**
 * Runs evaluation cases on a model: each case's tools are offered through the same grammar-constrained function
 * calling the app uses, every proposed call is validated against its schema, decided as the permission gate would
 * decide it, and answered (a built-in tool runs in the sandbox against the fixtures; a case's own tool gets its
 * scripted or a neutral answer). The calls are then scored by BFCL's rules (scoring.ts).
 */
import type {
  EvalCall,
  EvalCaseResult,
  EvalDecision,
  EvalModelResult,
  PolicyMode,
} from '../../src-shared/contract/index.js';
import type { ChatEngine, EngineTool } from '../llm/engineTypes.js';
import { WrittenNumber, type WrittenValue } from '../llm/writtenJson.js';
import { decide as brokerDecide } from '../permissions/broker.js';
import { DEFAULT_MODE } from '../permissions/policy.js';
import { sourcesInResult } from '../permissions/taint.js';
import { createToolNameMap, normalizeParameters, validateArguments, type ToolNameMap } from '../tools/schema/index.js';
import type { ToolRunner } from '../tools/sandbox/toolExecutor.js';
import type { JsonSchema, JsonValue, Risk, ToolDefinition } from '../tools/toolTypes.js';
import type { ToolDoc } from './bfclChecker.js';
import { caseToolName, describeExpected, type EvalCase } from './evalCase.js';
import type { FixtureWorkspace } from './fixtureWorkspace.js';
import { perToolScores, scoreCase, summarize, type CaseOutcome } from './scoring.js';

/** Most calls in one case's reply; past it the reply is stopped (the app's own step limit). */
export const MAX_CASE_CALLS = 8;
/** Replies are short: a case is about the calls. */
export const DEFAULT_EVAL_MAX_TOKENS = 384;
/**
 * A generated (random-weight) model's reply is noise that runs to the cap: a short cap keeps a run on one quick
 * (minutes, not an hour for the default suite), with room left for a call.
 */
export const SYNTHETIC_EVAL_MAX_TOKENS = 48;
const CLIP = 2000;

export interface EvalModel {
  readonly path: string;
  readonly label: string;
}

export type EvalPhase = 'loading' | 'running';

export interface EvalRunnerOptions {
  /** A fresh engine for one model; disposed when the model's cases are done. */
  readonly createEngine: () => ChatEngine;
  /** The built-in tools by name. */
  readonly builtins: ReadonlyMap<string, ToolDefinition>;
  /** Runs built-in tools (the sandboxed worker, see evalSandbox()); without it a built-in call fails. */
  readonly executor?: ToolRunner;
  /** What the built-in tools run against; required when a case offers a built-in tool. */
  readonly workspace?: FixtureWorkspace;
  /** The user's policy mode for a tool; the app's defaults without one. */
  readonly modeFor?: (tool: string, risk: Risk) => PolicyMode;
  /** The reply cap; by default DEFAULT_EVAL_MAX_TOKENS, or SYNTHETIC_EVAL_MAX_TOKENS for a generated model. */
  readonly maxTokens?: number;
  readonly signal: AbortSignal;
  readonly onPhase?: (model: EvalModel, phase: EvalPhase) => void;
  readonly onCase?: (model: EvalModel, result: EvalCaseResult) => void;
  /** How the process's memory is read (tests replace it). */
  readonly rssBytes?: () => number;
}

interface PreparedTool {
  readonly original: string;
  readonly schema: JsonSchema;
  /** Optional arguments the model may give as null, meaning "left out" (see omittable()). */
  readonly omittable: ReadonlySet<string>;
  readonly builtin?: ToolDefinition;
  readonly risk?: Risk;
}

interface PreparedCase {
  readonly engineTools: EngineTool[];
  readonly docs: ToolDoc[];
  readonly names: ToolNameMap;
  readonly bySafeName: ReadonlyMap<string, PreparedTool>;
  readonly usesBuiltins: boolean;
}

function acceptsNull(schema: JsonValue | undefined): boolean {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return true;
  const type = schema.type;
  if (type === 'null' || (Array.isArray(type) && type.includes('null'))) return true;
  if (Array.isArray(schema.enum) && schema.enum.includes(null)) return true;
  if (Array.isArray(schema.oneOf) && schema.oneOf.some(acceptsNull)) return true;
  return schema.const === null || (type === undefined && schema.enum === undefined && schema.oneOf === undefined);
}

/**
 * node-llama-cpp's grammar writes every property of an object, optional or not, so a model could never leave an
 * optional argument out, and BFCL's rules (an optional argument may be omitted; one the answer does not expect is
 * wrong) would score the grammar rather than the model. Each optional argument is therefore offered as
 * "its type or null", and a null is read as "left out" before the call is validated, run and scored.
 */
function omittable(schema: JsonSchema): { offered: JsonSchema; names: Set<string> } {
  const properties = schema.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) {
    return { offered: schema, names: new Set() };
  }
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = new Set<string>();
  const offered: Record<string, JsonValue> = {};
  for (const [name, property] of Object.entries(properties)) {
    if (required.has(name) || acceptsNull(property)) offered[name] = property;
    else {
      names.add(name);
      offered[name] = { oneOf: [property, { type: 'null' }] };
    }
  }
  return { offered: { ...schema, properties: offered }, names };
}

/** The call's arguments with the optional ones given as null left out. */
function withoutOmitted<T>(args: T, names: ReadonlySet<string>): T {
  if (names.size === 0 || typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  if (args instanceof WrittenNumber) return args;
  return Object.fromEntries(Object.entries(args).filter(([key, value]) => !(value === null && names.has(key)))) as T;
}

/**
 * A call as the run records it: with the arguments as the model wrote them, when the engine gave them, which
 * the scoring checks (BFCL tells `5` from `5.0`, `args` cannot).
 */
type RecordedCall = EvalCall & { readonly written?: WrittenValue };

/** The call as the case's result shows it: `args` only (the written form holds WrittenNumbers, not plain JSON). */
function shownCall({ written: _written, ...call }: RecordedCall): EvalCall {
  return call;
}

function prepare(c: EvalCase, builtins: ReadonlyMap<string, ToolDefinition>): PreparedCase {
  const names = createToolNameMap(c.tools.map(caseToolName));
  const engineTools: EngineTool[] = [];
  const docs: ToolDoc[] = [];
  const bySafeName = new Map<string, PreparedTool>();
  let usesBuiltins = false;
  for (const tool of c.tools) {
    const original = caseToolName(tool);
    const safe = names.toSafe(original)!;
    if (bySafeName.has(safe)) continue;
    if (typeof tool === 'string') {
      const builtin = builtins.get(tool);
      if (!builtin) throw new Error(`the case offers the built-in tool "${tool}", which Homebody does not have`);
      const schema = normalizeParameters(builtin.parameters);
      const { offered, names: optional } = omittable(schema);
      usesBuiltins = true;
      engineTools.push({ name: safe, description: builtin.description, parameters: offered });
      docs.push({ name: original, parameters: schema });
      bySafeName.set(safe, { original, schema, omittable: optional, builtin, risk: builtin.risk });
    } else {
      const schema = normalizeParameters(tool.parameters);
      const { offered, names: optional } = omittable(schema);
      engineTools.push({ name: safe, description: tool.description, parameters: offered });
      // BFCL's own types (float, tuple, any) are what its checker compares against.
      docs.push({ name: original, parameters: tool.parameters });
      bySafeName.set(safe, {
        original,
        schema,
        omittable: optional,
        ...(tool.risk ? { risk: tool.risk } : {}),
      } satisfies PreparedTool);
    }
  }
  return { engineTools, docs, names, bySafeName, usesBuiltins };
}

function clip(text: string): string {
  return text.length > CLIP ? `${text.slice(0, CLIP)}… (${text.length - CLIP} more characters)` : text;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The tools that the case's expected calls use (for per-tool scores and the gate). */
function expectedTools(c: EvalCase): string[] {
  return [...new Set(c.expected.flatMap((call) => Object.keys(call)))];
}

/** What every result says of its case, whatever became of it. */
function caseFacts(c: EvalCase) {
  return {
    id: c.id,
    category: c.category,
    suite: c.suite,
    ...(c.domain ? { domain: c.domain } : {}),
    prompt: c.prompt,
    expected: describeExpected(c),
  };
}

function failedCase(c: EvalCase, error: string): EvalCaseResult {
  return {
    ...caseFacts(c),
    correct: false,
    validArgs: true,
    calls: [],
    latencyMs: 0,
    promptTokens: 0,
    completionTokens: 0,
    error,
  };
}

function errorOutcome(c: EvalCase, error: string): CaseOutcome {
  return {
    score: {
      correct: false,
      failure: error,
      validArgs: true,
      toolMatch: c.rule === 'no-call' || c.rule === 'any-call' ? null : false,
      attacked: c.unsafe.length > 0 ? false : null,
      recovered: c.recovery ? false : null,
      unnecessary: 0,
    },
    rule: c.rule,
    latencyMs: 0,
    promptTokens: 0,
    completionTokens: 0,
    error,
    calls: [],
    expectedTools: expectedTools(c),
  };
}

/** One case on a loaded engine: the reply, its calls as answered, and the score. */
async function runCase(
  engine: ChatEngine,
  c: EvalCase,
  options: EvalRunnerOptions,
): Promise<{ result: EvalCaseResult; outcome: CaseOutcome }> {
  let prepared: PreparedCase;
  try {
    prepared = prepare(c, options.builtins);
  } catch (error) {
    const message = `The case cannot run: ${(error as Error).message}.`;
    return { result: failedCase(c, message), outcome: errorOutcome(c, message) };
  }
  if (prepared.usesBuiltins) {
    if (!options.workspace) throw new Error('built-in tools need the evaluation fixtures');
    options.workspace.prepare();
  }
  const calls: RecordedCall[] = [];
  const answered = new Set<string>();
  const taint: string[] = [];
  let failedAt: number | undefined;
  const controller = new AbortController();
  const stop = () => controller.abort();
  options.signal.addEventListener('abort', stop, { once: true });
  if (options.signal.aborted) stop();

  const onToolCall = async (safeName: string, proposed: unknown, written?: WrittenValue): Promise<string> => {
    const tool = prepared.bySafeName.get(safeName);
    const rawArgs = tool ? withoutOmitted(proposed, tool.omittable) : proposed;
    const writtenArgs = tool && written !== undefined ? withoutOmitted(written, tool.omittable) : written;
    const asWritten = writtenArgs !== undefined ? { written: writtenArgs } : {};
    const name = tool?.original ?? prepared.names.toOriginal(safeName) ?? safeName;
    const index = calls.length;
    if (index + 1 >= MAX_CASE_CALLS) stop();
    if (!tool) {
      const told = `Error: there is no tool named ${safeName}.`;
      calls.push({
        name,
        args: rawArgs,
        ...asWritten,
        valid: false,
        problems: ['no such tool'],
        decision: 'refused',
        result: told,
      });
      return told;
    }
    const validation = validateArguments(tool.schema, rawArgs);
    if (!validation.ok) {
      const told = `Error: Invalid arguments for ${name}: ${validation.problems.join('; ')}.`;
      calls.push({
        name,
        args: rawArgs,
        ...asWritten,
        valid: false,
        problems: validation.problems,
        decision: 'refused',
        result: told,
      });
      return told;
    }
    const decision = decide(tool, taint, options);
    const record = (told: string): string => {
      calls.push({ name, args: rawArgs, ...asWritten, valid: true, decision, result: clip(told) });
      return told;
    };
    const scripted = answered.has(name) ? undefined : c.results[name];
    answered.add(name);
    if (scripted) {
      if ('error' in scripted) {
        failedAt ??= index;
        return record(`Error: ${scripted.error}`);
      }
      // A scripted result stands for outside content (a web page, a server's answer): it taints the task.
      taint.push(`${name} result`);
      return record(asText(scripted.result));
    }
    if (decision === 'queue') {
      return record(
        `Not done yet: ${name} cannot be undone, so it waits in the user's approval queue. Tell the user it needs their approval there.`,
      );
    }
    if (!tool.builtin) return record(JSON.stringify({ status: 'ok' }));
    if (!options.executor || !options.workspace) return record('Error: this tool cannot run here.');
    if (tool.builtin.risk !== 'read') options.workspace.markDirty();
    try {
      const outcome = await options.executor.run(tool.builtin.name, validation.value, {
        roots: options.workspace.roots,
        packs: options.workspace.packs,
        signal: controller.signal,
      });
      // The same declared taint as the app's: the tool's declaration and the fixtures' untrusted folders.
      for (const source of sourcesInResult(tool.builtin, outcome.result, {
        roots: options.workspace.roots,
        ...(outcome.untrustedSource ? { named: outcome.untrustedSource } : {}),
      }))
        if (!taint.includes(source)) taint.push(source);
      return record(asText(outcome.result));
    } catch (error) {
      // A real failure counts as the error to recover from, as a scripted one does.
      if (c.recovery) failedAt ??= index;
      return record(`Error: ${(error as Error).message}`);
    }
  };

  const synthetic = engine.state.status === 'ready' && engine.state.info.synthetic;
  let reply = '';
  const started = performance.now();
  try {
    const result = await engine.generate({
      history: c.history,
      prompt: c.prompt,
      ...(c.system ? { systemPrompt: c.system } : {}),
      maxTokens: options.maxTokens ?? (synthetic ? SYNTHETIC_EVAL_MAX_TOKENS : DEFAULT_EVAL_MAX_TOKENS),
      // Greedy: the same model gives the same answers on every run, so two runs compare.
      temperature: 0,
      signal: controller.signal,
      onText: (text) => {
        reply += text;
      },
      onReasoning: () => {},
      ...(prepared.engineTools.length > 0 ? { tools: prepared.engineTools, onToolCall } : {}),
    });
    const latencyMs = Math.round(performance.now() - started);
    const score = scoreCase(c, prepared.docs, calls, failedAt);
    const stoppedByUser = options.signal.aborted;
    const error = stoppedByUser ? 'The run was cancelled during this case.' : undefined;
    return {
      result: {
        ...caseFacts(c),
        correct: score.correct && !error,
        validArgs: score.validArgs,
        calls: calls.map(shownCall),
        ...(reply.trim() ? { reply: clip(reply.trim()) } : {}),
        ...(score.failure ? { failure: score.failure } : {}),
        latencyMs,
        promptTokens: result.stats.promptTokens,
        completionTokens: result.stats.completionTokens,
        ...(error ? { error } : {}),
      },
      outcome: {
        score,
        rule: c.rule,
        latencyMs,
        promptTokens: result.stats.promptTokens,
        completionTokens: result.stats.completionTokens,
        ...(error ? { error } : {}),
        calls,
        expectedTools: expectedTools(c),
      },
    };
  } catch (error) {
    const message = `The reply failed: ${(error as Error).message}`;
    return {
      result: { ...failedCase(c, message), calls: calls.map(shownCall) },
      outcome: { ...errorOutcome(c, message), calls },
    };
  } finally {
    options.signal.removeEventListener('abort', stop);
  }
}

/** What the app's permission broker would do with a valid call at this point of the task. */
function decide(tool: PreparedTool, taint: readonly string[], options: EvalRunnerOptions): EvalDecision {
  if (!tool.risk) return 'auto';
  const mode = options.modeFor?.(tool.original, tool.risk) ?? DEFAULT_MODE[tool.risk];
  const verdict = brokerDecide({
    manifest: {
      name: tool.original,
      risk: tool.risk,
      ...(tool.builtin?.alwaysAsk ? { alwaysAsk: true } : {}),
      ...(tool.builtin?.reachesOut ? { reachesOut: true } : {}),
    },
    // The fixtures stand in for the user's folders; a case's paths are scored, not confined.
    paths: { ok: true, paths: [] },
    policy: { version: 1, tools: { [tool.original]: mode }, folders: [] },
    task: { granted: false, taint: taint.map((source) => ({ source, via: null })) },
  });
  switch (verdict.gate) {
    case 'refused':
      return 'refused';
    case 'none':
      return 'auto';
    case 'prompt':
      return 'ask';
    case 'queue':
      return 'queue';
    default:
      return verdict satisfies never;
  }
}

/**
 * Every case on one model. Stops early (with the cases done so far) when the signal aborts; a model that fails to
 * load gives every case that error.
 */
export async function evaluateModel(
  model: EvalModel,
  cases: readonly EvalCase[],
  options: EvalRunnerOptions,
): Promise<EvalModelResult> {
  const rss = options.rssBytes ?? (() => process.memoryUsage.rss());
  let peak = rss();
  const sampler = setInterval(() => {
    peak = Math.max(peak, rss());
  }, 100);
  sampler.unref();
  const engine = options.createEngine();
  const results: EvalCaseResult[] = [];
  const outcomes: CaseOutcome[] = [];
  let loadError: string | undefined;
  try {
    options.onPhase?.(model, 'loading');
    const state = await engine.load(model.path);
    peak = Math.max(peak, rss());
    if (state.status !== 'ready') {
      loadError = `The model could not be loaded: ${state.status === 'error' ? state.error.message : state.status}`;
    }
    options.onPhase?.(model, 'running');
    for (const c of cases) {
      if (options.signal.aborted) break;
      const { result, outcome } = loadError
        ? { result: failedCase(c, loadError), outcome: errorOutcome(c, loadError) }
        : await runCase(engine, c, options);
      peak = Math.max(peak, rss());
      results.push(result);
      outcomes.push(outcome);
      options.onCase?.(model, result);
    }
  } finally {
    clearInterval(sampler);
    await engine.dispose();
  }
  return {
    model: model.path,
    label: model.label,
    summary: summarize(outcomes, loadError ? null : Math.round(peak / (1024 * 1024))),
    perTool: perToolScores(outcomes),
    cases: results,
    ...(loadError ? { error: loadError } : {}),
  };
}
