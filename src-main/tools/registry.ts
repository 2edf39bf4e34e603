import type { ToolInfo } from '../../src-shared/contract/index.js';
import { BUILTIN_TOOLS } from './builtin/index.js';
import { normalizeParameters } from './schema/index.js';
import type { ToolDefinition } from './toolTypes.js';

/** The source of the built-in tools; other sources (an MCP server each) come and go. */
export const BUILTIN_SOURCE = 'builtin';

/** A name that begins another, or is another, as the registry words the clash; undefined when none. */
function clashOf(name: string, others: Iterable<string>): string | undefined {
  for (const other of others) if (other.startsWith(name) || name.startsWith(other)) return other;
  return undefined;
}

/**
 * The tools Homebody knows, by name, from several sources: the built-in packs, and each MCP server while it
 * runs. The model is offered only those the policy does not switch off. A source can also name tools it has
 * but must not run now (an MCP tool whose definition changed since the user trusted it, a stopped server),
 * with the reason a call to one is refused.
 */
export class ToolRegistry {
  private readonly sources = new Map<string, ReadonlyMap<string, ToolDefinition>>();
  private readonly unavailable = new Map<string, ReadonlyMap<string, string>>();
  private tools: ReadonlyMap<string, ToolDefinition> = new Map();

  constructor(tools: readonly ToolDefinition[] = BUILTIN_TOOLS) {
    this.setSource(BUILTIN_SOURCE, tools);
  }

  /**
   * Replaces the tools of one source (none: the source is gone). Throws, changing nothing, when a name is
   * taken or begins another tool's name (or another's begins it): a name that begins another (move /
   * move_to_trash) is a fork inside the grammar's name rule that a small model can take by mistake.
   */
  setSource(
    source: string,
    tools: readonly ToolDefinition[],
    unavailable: ReadonlyMap<string, string> = new Map(),
  ): void {
    const map = new Map<string, ToolDefinition>();
    for (const tool of tools) {
      if (map.has(tool.name)) throw new Error(`two tools are named ${tool.name}`);
      const clash = clashOf(tool.name, map.keys()) ?? this.clashElsewhere(tool.name, source);
      if (clash) throw new Error(`the tool names ${clash} and ${tool.name} begin alike; rename one`);
      map.set(tool.name, { ...tool, parameters: normalizeParameters(tool.parameters) });
    }
    if (map.size === 0 && unavailable.size === 0) {
      this.sources.delete(source);
      this.unavailable.delete(source);
    } else {
      this.sources.set(source, map);
      this.unavailable.set(source, unavailable);
    }
    this.tools = new Map([...this.sources.values()].flatMap((m) => [...m]));
  }

  /** The name of another source's tool that `name` would clash with (equal, or one begins the other). */
  clashElsewhere(name: string, source: string): string | undefined {
    for (const [other, tools] of this.sources) {
      if (other === source) continue;
      const clash = clashOf(name, tools.keys());
      if (clash) return clash;
    }
    return undefined;
  }

  /** Why a known tool cannot run now (held for review, its server stopped); undefined for any other name. */
  unavailableReason(name: string): string | undefined {
    for (const reasons of this.unavailable.values()) {
      const reason = reasons.get(name);
      if (reason) return reason;
    }
    return undefined;
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
      ...(t.alwaysAsk ? { alwaysAsk: true } : {}),
      // Built-in and MCP tools have words for people; any other (a test's) shows its name and description.
      title: t.forPeople?.title ?? t.name,
      text: t.forPeople?.text ?? t.description,
      touches: t.touches ?? null,
    }));
  }
}
