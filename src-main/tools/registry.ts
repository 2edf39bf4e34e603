import type { ToolInfo } from '../../src-shared/contract/index.js';
import { BUILTIN_TOOLS } from './builtin/index.js';
import { normalizeParameters } from './schema/index.js';
import type { ToolDefinition } from './toolTypes.js';

/** The tools Homebody knows, by name. The model is offered only those the policy does not switch off. */
export class ToolRegistry {
  private readonly tools: ReadonlyMap<string, ToolDefinition>;

  constructor(tools: readonly ToolDefinition[] = BUILTIN_TOOLS) {
    const map = new Map<string, ToolDefinition>();
    for (const tool of tools) {
      if (map.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
      // A name that begins another (move / move_to_trash) is a fork inside the grammar's name rule that a
      // small model can take by mistake; keep every name distinct from its first letters to its last.
      const clash = [...map.keys()].find((other) => other.startsWith(tool.name) || tool.name.startsWith(other));
      if (clash) throw new Error(`the tool names ${clash} and ${tool.name} begin alike; rename one`);
      map.set(tool.name, { ...tool, parameters: normalizeParameters(tool.parameters) });
    }
    this.tools = map;
  }

  get(name: string): ToolDefinition | undefined {
    return this.tools.get(name);
  }

  all(): ToolDefinition[] {
    return [...this.tools.values()];
  }

  names(): string[] {
    return [...this.tools.keys()];
  }

  info(): ToolInfo[] {
    return this.all().map((t) => ({
      name: t.name,
      description: t.description,
      risk: t.risk,
      parameters: t.parameters,
    }));
  }
}
