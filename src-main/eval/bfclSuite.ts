/**
 * BFCL v4 suites (Berkeley Function Calling Leaderboard, Apache-2.0): `BFCL_v4_<category>.json` in JSON Lines,
 * with the ground truths in `possible_answer/BFCL_v4_<category>.json` beside them. Single-turn categories only:
 * the multi-turn ones are scored by executing BFCL's own Python environments, which Homebody does not have.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { parseWrittenJson } from '../llm/writtenJson.js';
import type { CaseTool, EvalCase, ExpectedCall, MatchRule } from './evalCase.js';

/** A suite file that cannot be used, with where and why. */
export class SuiteError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SuiteError';
  }
}

const FILE_PATTERN = /^BFCL_v\d+_(.+)\.jsonl?$/;

/** The category a BFCL file holds, from its name (`BFCL_v4_live_simple.json` → `live_simple`). */
export function bfclCategoryOf(path: string): string | undefined {
  return FILE_PATTERN.exec(basename(path))?.[1];
}

/** How BFCL scores a category (its ast_checker dispatch, and the relevance categories). */
export function ruleForCategory(category: string): MatchRule {
  if (category.includes('irrelevance')) return 'no-call';
  if (category.includes('relevance')) return 'any-call';
  if (category.includes('parallel')) return 'parallel';
  if (category.includes('multiple')) return 'multiple';
  return 'simple';
}

interface JsonLine {
  readonly line: number;
  readonly text: string;
  readonly value: Record<string, unknown>;
}

function readJsonLines(path: string): JsonLine[] {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new SuiteError(`Cannot read ${path}: ${(error as Error).message}`);
  }
  const out: JsonLine[] = [];
  text.split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (error) {
      throw new SuiteError(`${path}:${i + 1} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new SuiteError(`${path}:${i + 1} is not a JSON object`);
    }
    out.push({ line: i + 1, text: raw, value: value as Record<string, unknown> });
  });
  return out;
}

interface Message {
  readonly role: string;
  readonly content: string;
}

function messagesOf(question: unknown, where: string): Message[] {
  if (!Array.isArray(question) || question.length === 0) throw new SuiteError(`${where}: "question" is not a list`);
  // A list of turns, each a list of messages; older files give one flat list of messages.
  const turns = Array.isArray(question[0]) ? (question as unknown[][]) : [question];
  return turns.flat().map((m, i) => {
    const message = m as { role?: unknown; content?: unknown } | null;
    if (typeof message?.role !== 'string' || typeof message.content !== 'string') {
      throw new SuiteError(`${where}: message ${i + 1} has no role and content`);
    }
    return { role: message.role, content: message.content };
  });
}

function toolsOf(functions: unknown, where: string): CaseTool[] {
  if (!Array.isArray(functions)) throw new SuiteError(`${where}: "function" is not a list`);
  return functions.map((f, i) => {
    const def = f as { name?: unknown; description?: unknown; parameters?: unknown } | null;
    if (typeof def?.name !== 'string' || def.name === '')
      throw new SuiteError(`${where}: function ${i + 1} has no name`);
    const parameters =
      typeof def.parameters === 'object' && def.parameters !== null && !Array.isArray(def.parameters)
        ? (def.parameters as Record<string, unknown>)
        : { type: 'dict', properties: {} };
    return { name: def.name, description: typeof def.description === 'string' ? def.description : '', parameters };
  });
}

/** The answers file beside a suite file: `possible_answer/<same name>`. */
export function answersPathFor(suitePath: string): string {
  return join(dirname(suitePath), 'possible_answer', basename(suitePath));
}

/**
 * The answers keep their numbers as written (WrittenNumber): BFCL's checker takes the type of an allowed value
 * from them, and `[1.0, 3.0]` wants floats in an array where `[1, 3]` lets ints pass.
 */
function readAnswers(path: string): Map<string, ExpectedCall[]> {
  const answers = new Map<string, ExpectedCall[]>();
  for (const { line, text } of readJsonLines(path)) {
    const value = parseWrittenJson(text) as Record<string, unknown>;
    if (typeof value.id !== 'string' || !Array.isArray(value.ground_truth)) {
      throw new SuiteError(`${path}:${line}: no "id" and "ground_truth"`);
    }
    answers.set(value.id, value.ground_truth as ExpectedCall[]);
  }
  return answers;
}

/**
 * The cases of one BFCL file. The category comes from the file's name, else from the case ids
 * (`live_simple_12-3-0` → `live_simple`). Throws a SuiteError naming the file and line of anything unusable.
 */
export function loadBfclSuite(path: string): { name: string; cases: EvalCase[] } {
  const lines = readJsonLines(path);
  const fromName = bfclCategoryOf(path);
  const category = fromName ?? categoryFromId(lines[0]?.value.id);
  if (!category) throw new SuiteError(`${path}: cannot tell the BFCL category from the file name or the case ids`);
  if (category.startsWith('multi_turn') || category.startsWith('memory') || category.startsWith('web_search')) {
    throw new SuiteError(
      `${path}: BFCL's ${category} category is scored by running BFCL's own environments, which Homebody does not ` +
        'have; use the single-turn categories (simple_*, multiple, parallel, parallel_multiple, irrelevance, live_*).',
    );
  }
  const rule = ruleForCategory(category);
  const needsAnswers = rule !== 'no-call' && rule !== 'any-call';
  const answersPath = answersPathFor(path);
  if (needsAnswers && !existsSync(answersPath)) {
    throw new SuiteError(`${path}: the ${category} cases need their answers in ${answersPath}, which is missing`);
  }
  const answers = needsAnswers ? readAnswers(answersPath) : new Map<string, ExpectedCall[]>();
  const suite = `BFCL ${category}`;
  const cases = lines.map(({ line, value }): EvalCase => {
    const where = `${path}:${line}`;
    if (typeof value.id !== 'string' || value.id === '') throw new SuiteError(`${where}: no "id"`);
    const messages = messagesOf(value.question, where);
    const lastUser = messages.findLastIndex((m) => m.role === 'user');
    if (lastUser < 0) throw new SuiteError(`${where}: no user message`);
    const expected = needsAnswers ? answers.get(value.id) : [];
    if (!expected) throw new SuiteError(`${where}: ${value.id} has no answer in ${answersPath}`);
    const system = messages
      .filter((m) => m.role === 'system')
      .map((m) => m.content)
      .join('\n\n');
    const history = messages
      .slice(0, lastUser)
      .filter((m) => m.role === 'user' || m.role === 'assistant')
      .map((m) => ({ role: m.role as 'user' | 'assistant', text: m.content }));
    return {
      id: value.id,
      category,
      suite,
      ...(system ? { system } : {}),
      history,
      prompt: messages[lastUser]!.content,
      tools: toolsOf(value.function, where),
      expected,
      rule,
      results: {},
      unsafe: [],
      recovery: false,
    };
  });
  return { name: suite, cases };
}

function categoryFromId(id: unknown): string | undefined {
  if (typeof id !== 'string') return undefined;
  const match = /^(.+?)_\d+(?:-\d+)*$/.exec(id);
  return match?.[1];
}
