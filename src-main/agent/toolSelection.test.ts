import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineTool } from '../llm/engineTypes.js';
import { assertBfclDir, bfclDir } from '../testing/bfclFixtures.js';
import { SELECT_TOP, selectTools, stem, terms } from './toolSelection.js';

interface Question {
  readonly id: string;
  readonly text: string;
  readonly tools: EngineTool[];
  readonly expected: string[];
}

function jsonLines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function asTool(raw: unknown): EngineTool {
  const def = raw as { name: string; description?: string; parameters?: Record<string, unknown> };
  return { name: def.name, description: def.description ?? '', parameters: def.parameters ?? {} };
}

/** A BFCL category's questions with their offered functions and the functions the ground truth calls. */
function questions(category: string): Question[] {
  assertBfclDir();
  const answers = new Map(
    jsonLines(join(bfclDir, 'possible_answer', `BFCL_v4_${category}.json`)).map((a) => [
      a.id as string,
      (a.ground_truth as Array<Record<string, unknown>>).flatMap((call) => Object.keys(call)),
    ]),
  );
  return jsonLines(join(bfclDir, `BFCL_v4_${category}.json`)).map((q) => {
    const turns = (q.question as Array<Array<{ role: string; content: string }>>).flat();
    return {
      id: q.id as string,
      text: turns
        .filter((t) => t.role === 'user')
        .map((t) => t.content)
        .join('\n'),
      tools: (q.function as unknown[]).map(asTool),
      expected: answers.get(q.id as string) ?? [],
    };
  });
}

/**
 * Recall of the expected functions among the selected tools, with the questions taken in consecutive blocks
 * whose functions are pooled: every question is asked against `poolSize`-odd tools from many domains.
 */
function recall(all: Question[], block: number): { hits: number; total: number; pool: number[]; misses: string[] } {
  let hits = 0;
  let total = 0;
  const pool: number[] = [];
  const misses: string[] = [];
  for (let start = 0; start < all.length; start += block) {
    const group = all.slice(start, start + block);
    const byName = new Map<string, EngineTool>();
    for (const q of group) for (const t of q.tools) if (!byName.has(t.name)) byName.set(t.name, t);
    const tools = [...byName.values()];
    pool.push(tools.length);
    for (const q of group) {
      const offered = new Set(selectTools(tools, { prompt: q.text }).tools.map((t) => t.name));
      for (const name of q.expected) {
        total++;
        if (offered.has(name)) hits++;
        else misses.push(`${q.id}: ${name}`);
      }
    }
  }
  return { hits, total, pool, misses };
}

const multiTurnTools = (): EngineTool[] => {
  assertBfclDir();
  const dir = join(bfclDir, 'multi_turn_func_doc');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .flatMap((f) => jsonLines(join(dir, f)).map(asTool));
};

describe('terms and stems', () => {
  it('splits names on underscores, dots and camelCase, and meets word forms', () => {
    expect(terms('move_to_trash')).toEqual([stem('move'), stem('trash')]);
    expect(terms('activateParkingBrake')).toEqual(['activate', 'parking', 'brake'].map(stem));
    expect(terms('triangle_properties.get')).toEqual([stem('triangle'), stem('properties')]);
    for (const [a, b] of [
      ['files', 'file'],
      ['deleting', 'delete'],
      ['searches', 'search'],
      ['called', 'call'],
      ['stopped', 'stop'],
    ] as const)
      expect(stem(a)).toBe(stem(b));
  });
});

describe('selectTools', () => {
  const many = multiTurnTools();

  it('offers every tool unchanged when there are 12 or fewer', () => {
    const few = many.slice(0, 12);
    const selection = selectTools(few, { prompt: 'post a tweet' });
    expect(selection).toEqual({ tools: few, narrowed: false });
  });

  it('offers at most the top few of many tools, in their given order', () => {
    expect(many.length).toBeGreaterThan(40);
    const selection = selectTools(many, { prompt: 'Delete the file notes.txt in the current folder' });
    expect(selection.narrowed).toBe(true);
    expect(selection.tools.length).toBeLessThanOrEqual(SELECT_TOP);
    expect(selection.tools.map((t) => t.name)).toContain('rm');
    const order = selection.tools.map((t) => many.indexOf(t));
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('always keeps the tools the task has used already', () => {
    const selection = selectTools(many, { prompt: 'Delete the file notes.txt', usedTools: ['get_stock_info', 'cd'] });
    const names = selection.tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['get_stock_info', 'cd', 'rm']));
    expect(names.length).toBeLessThanOrEqual(SELECT_TOP + 2);
  });

  it("offers the previous reply's tools again while they hold the new request's best, so the prompt stays the same", () => {
    const first = selectTools(many, { prompt: 'Delete the file notes.txt in the current folder' });
    const previouslyOffered = first.tools.map((t) => t.name);
    const again = selectTools(many, { prompt: 'and remove the file draft.txt too', previouslyOffered });
    expect(again.tools).toEqual(first.tools);
    const other = selectTools(many, { prompt: 'buy 10 shares of AAPL', previouslyOffered });
    const names = other.tools.map((t) => t.name);
    expect(names).toContain('place_order');
    // The previous tools do not fit this request: a new choice.
    expect(names).toEqual(selectTools(many, { prompt: 'buy 10 shares of AAPL' }).tools.map((t) => t.name));
  });

  it('offers everything when nothing in the request matches any tool', () => {
    expect(selectTools(many, { prompt: 'hi!' })).toEqual({ tools: many, narrowed: false });
    // Within a task that made a choice before, that choice stands.
    const previouslyOffered = ['cd', 'rm'];
    expect(selectTools(many, { prompt: 'hi!', previouslyOffered }).tools.map((t) => t.name)).toEqual(['cd', 'rm']);
  });

  it('lets a short follow-up lean on the earlier request', () => {
    const selection = selectTools(many, {
      prompt: 'yes, go ahead',
      earlierPrompts: ['Please send a message to user USR002 saying hello'],
    });
    expect(selection.tools.map((t) => t.name)).toContain('send_message');
  });

  it('finds the intended tool among the multi-turn tools for everyday requests', () => {
    const cases: Array<[string, string]> = [
      ['remove the old report.txt', 'rm'],
      ['make a new directory called photos', 'mkdir'],
      ['show me what files are here', 'ls'],
      ['look up the word budget inside report.txt', 'grep'],
      ['email John that I will be late', 'send_message'],
      ['buy 10 shares of AAPL', 'place_order'],
      ['book a flight from SFO to LAX on Friday', 'book_flight'],
      ['open a support ticket about my broken laptop', 'create_ticket'],
      ['post a tweet saying good morning', 'post_tweet'],
      ['what is the square root of 49', 'square_root'],
      ['start the car engine', 'startEngine'],
      ['search the web for local bakeries', 'search_engine_query'],
      ['rename draft.txt to final.txt', 'mv'],
      ['cancel my order 12345', 'cancel_order'],
    ];
    const missed = cases.filter(([prompt, tool]) => !selectTools(many, { prompt }).tools.some((t) => t.name === tool));
    expect(missed).toEqual([]);
  });

  // Measured (2026-11-30), top 8: multiple 99.0% (198/200, pools of 16-47 tools), simple_python 98.5% (394/400,
  // pools of 34-40), parallel_multiple 99.2% (602/607, pools of 14-46); the floors leave a little room for tuning.
  it.each([
    ['multiple', 15, 0.95],
    ['simple_python', 40, 0.95],
    ['parallel_multiple', 15, 0.95],
  ] as const)('keeps the expected function for BFCL %s questions among pooled tools', (category, block, floor) => {
    const { hits, total, pool, misses } = recall(questions(category), block);
    const share = hits / total;
    console.info(
      `tool selection recall on BFCL ${category}: ${(share * 100).toFixed(1)}% (${hits}/${total}), ` +
        `pools of ${Math.min(...pool)}-${Math.max(...pool)} tools, top ${SELECT_TOP}; missed ${misses.slice(0, 8).join(', ')}`,
    );
    expect(Math.min(...pool)).toBeGreaterThan(12);
    expect(share).toBeGreaterThanOrEqual(floor);
  });
});
