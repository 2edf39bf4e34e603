import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { EngineTool } from '../llm/engineTypes.js';
import { createToolNameMap, normalizeParameters } from '../tools/schema/index.js';

/** The Berkeley Function Calling Leaderboard's multi-turn tool docs, beside the repository (../shared/bfcl). */
export const BFCL_TOOL_DOCS = resolve(import.meta.dirname, '..', '..', '..', 'shared', 'bfcl', 'multi_turn_func_doc');

/**
 * `count` real tool definitions (file system, mail, travel, trading, ... from BFCL's multi-turn docs, in file
 * order), normalized as Homebody normalizes any tool's schema. Falls back to generated look-alikes when the
 * folder is missing, and says so through `source`.
 */
export function benchTools(count: number, dir = BFCL_TOOL_DOCS): { tools: EngineTool[]; source: string } {
  const raw: Array<{ name: string; description: string; parameters: unknown }> = [];
  if (existsSync(dir)) {
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()) {
      for (const line of readFileSync(join(dir, file), 'utf8').split('\n')) {
        if (line.trim() === '') continue;
        const def = JSON.parse(line) as { name?: unknown; description?: unknown; parameters?: unknown };
        if (typeof def.name !== 'string' || raw.some((t) => t.name === def.name)) continue;
        raw.push({
          name: def.name,
          description: typeof def.description === 'string' ? def.description : '',
          parameters: def.parameters,
        });
      }
    }
  }
  const source = raw.length >= count ? 'BFCL multi_turn_func_doc' : 'generated';
  for (let i = raw.length; i < count; i++) {
    raw.push({
      name: `tool_${i}`,
      description: `Tool number ${i}: looks up, creates or changes one kind of record in the user's own data.`,
      parameters: {
        type: 'object',
        properties: {
          id: { type: 'string', description: 'The record to act on' },
          limit: { type: 'integer', description: 'How many results at most' },
        },
        required: ['id'],
      },
    });
  }
  const picked = raw.slice(0, count);
  const names = createToolNameMap(picked.map((t) => t.name));
  return {
    source,
    tools: picked.map((t) => ({
      name: names.toSafe(t.name)!,
      description: t.description,
      parameters: normalizeParameters(t.parameters) as Record<string, unknown>,
    })),
  };
}
