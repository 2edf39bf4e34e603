import type { Llama } from 'node-llama-cpp';
import type { EngineTool } from './engineTypes.js';

type GrammarSchema = Parameters<Llama['createGrammarForJsonSchema']>[0];

/**
 * Which tools' parameter schemas llama.cpp can turn into a grammar. One that cannot (llama.cpp refuses a rule
 * repeated too often, e.g. a string of exactly 2,000 characters at most, or an array of integers with up to 1,999
 * items) would make the grammar of every function offered with it fail, and then no call is recognised at all: such
 * a tool is left out of the reply instead, and said so. Answers are kept per schema, so each is checked once.
 */
export class ToolGrammarCheck {
  private readonly known = new Map<string, Promise<string | null>>();

  constructor(
    private readonly llama: () => Promise<Llama>,
    private readonly log: (line: string) => void,
  ) {}

  /** The tools that can be offered, in their order; the others are logged once each with llama.cpp's reason. */
  async usable(tools: readonly EngineTool[]): Promise<EngineTool[]> {
    const problems = await Promise.all(tools.map((tool) => this.problem(tool)));
    return tools.filter((_, index) => problems[index] === null);
  }

  private problem(tool: EngineTool): Promise<string | null> {
    const key = JSON.stringify(tool.parameters);
    let answer = this.known.get(key);
    if (!answer) {
      answer = this.check(tool);
      this.known.set(key, answer);
    }
    return answer;
  }

  private async check(tool: EngineTool): Promise<string | null> {
    const llama = await this.llama();
    try {
      await llama.createGrammarForJsonSchema(tool.parameters as GrammarSchema);
      return null;
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      this.log(
        `The tool ${tool.name} is not offered: llama.cpp cannot build a grammar for its parameters (${reason}).`,
      );
      return reason;
    }
  }
}
