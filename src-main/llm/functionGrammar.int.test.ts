import { getLlama, type Llama, LlamaLogLevel } from 'node-llama-cpp';
import { beforeAll, describe, expect, it } from 'vitest';
import type { JsonSchema } from '../tools/toolTypes.js';
import { loadBfclFunctions } from '../testing/bfclFixtures.js';
import { anyValueSchema, normalizeParameters } from '../tools/schema/index.js';

// Every distinct converted BFCL parameter schema must compile to a real llama.cpp grammar
// (no model needed: the grammar is built and parsed by the native binding).
let llama: Llama;
beforeAll(async () => {
  llama = await getLlama({ gpu: false, build: 'never', logLevel: LlamaLogLevel.error, maxThreads: 2 });
});

type GrammarSchema = Parameters<Llama['createGrammarForJsonSchema']>[0];

async function compiles(schema: JsonSchema): Promise<string | undefined> {
  try {
    const grammar = await llama.createGrammarForJsonSchema(schema as GrammarSchema);
    return grammar.grammar.length > 0 ? undefined : 'empty grammar';
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

describe('function-calling grammars for converted schemas', () => {
  it('build for every distinct BFCL parameter schema', async () => {
    const distinct = new Map<string, { schema: JsonSchema; origin: string }>();
    for (const fn of loadBfclFunctions()) {
      const schema = normalizeParameters(fn.parameters);
      const key = JSON.stringify(schema);
      if (!distinct.has(key)) distinct.set(key, { schema, origin: `${fn.origin} ${fn.name}` });
    }
    expect(distinct.size).toBeGreaterThan(1000);
    const failures: string[] = [];
    for (const { schema, origin } of distinct.values()) {
      const problem = await compiles(schema);
      if (problem) failures.push(`${origin}: ${problem}`);
    }
    expect(failures).toEqual([]);
  });

  it('build for the permissive fallbacks and edge shapes', async () => {
    const schemas: JsonSchema[] = [
      normalizeParameters(undefined),
      normalizeParameters('nonsense'),
      normalizeParameters({
        type: 'dict',
        properties: { a: { type: 'any' }, t: { type: 'tuple', items: [{ type: 'float' }, 'string'] } },
      }),
      normalizeParameters({
        type: 'object',
        properties: { d: { type: 'string', format: 'date-time' }, n: { type: ['integer', 'null'] } },
      }),
      { type: 'object', properties: { v: anyValueSchema() }, additionalProperties: false },
    ];
    for (const schema of schemas) expect(await compiles(schema), JSON.stringify(schema)).toBeUndefined();
  });
});
