/**
 * Test support: scripted calls that give a case's expected answer (the first allowed value of each argument), so a
 * generated model, which never calls a tool by itself, makes the calls a perfect model would make. The grammar,
 * the parser, validation and scoring then do their real work on them.
 */
import type { ScriptedCall } from './scriptedCall.js';
import { caseToolName, type EvalCase } from '../eval/evalCase.js';
import { normalizeParameters } from '../tools/schema/index.js';
import { BUILTIN_TOOLS } from '../tools/builtin/index.js';
import { scripted } from './scriptedCall.js';

/** Why a case cannot be scripted from its answer (a data quirk), or undefined. */
export type AnswerScript = { calls: ScriptedCall[] } | { unscriptable: string };

export function answerScript(c: EvalCase): AnswerScript {
  const calls: ScriptedCall[] = [];
  const expected = c.rule === 'multiple' ? c.expected.slice(0, 1) : c.expected;
  for (const call of expected) {
    const [name, answer] = Object.entries(call)[0]!;
    const tool = c.tools.find((t) => caseToolName(t) === name);
    if (!tool) return { unscriptable: `the answer calls ${name}, which the case does not offer` };
    const raw = typeof tool === 'string' ? BUILTIN_TOOLS.find((b) => b.name === tool)?.parameters : tool.parameters;
    const schema = normalizeParameters(raw);
    const properties = Object.keys((schema.properties ?? {}) as object);
    const required = new Set((schema.required ?? []) as string[]);
    const args: Record<string, unknown> = {};
    // The grammar writes every property, in the schema's order; an optional one left out is written as null.
    for (const key of properties) {
      const value = (answer[key] ?? []).find((v) => v !== '');
      if (value === undefined && required.has(key))
        return { unscriptable: `${name}.${key} is required but unanswered` };
      args[key] = value ?? null;
    }
    for (const key of Object.keys(answer)) {
      if (!properties.includes(key) && answer[key]!.some((v) => v !== '')) {
        return { unscriptable: `the answer gives ${name}.${key}, which the tool does not declare` };
      }
    }
    calls.push(scripted(name, args));
  }
  return { calls };
}
