import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bfclDir } from '../testing/bfclFixtures.js';
import { loadBfclSuite, ruleForCategory, SuiteError } from './bfclSuite.js';
import { loadSuites } from './suiteLoader.js';

const lines = (...values: unknown[]) => values.map((v) => JSON.stringify(v)).join('\n') + '\n';
const weather = {
  name: 'get_current_weather',
  description: 'Current weather in a city.',
  parameters: {
    type: 'dict',
    required: ['location'],
    properties: { location: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
  },
};

/** A folder holding BFCL files in the live categories' shape (system messages, ids like live_simple_0-0-0). */
function liveFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'hb-bfcl-live-'));
  mkdirSync(join(dir, 'possible_answer'));
  writeFileSync(
    join(dir, 'BFCL_v4_live_simple.json'),
    lines({
      id: 'live_simple_0-0-0',
      question: [
        [
          { role: 'system', content: 'You are a weather bot.' },
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello! Where are you?' },
          { role: 'user', content: 'Weather in Lisbon, in celsius?' },
        ],
      ],
      function: [weather],
    }),
  );
  writeFileSync(
    join(dir, 'possible_answer', 'BFCL_v4_live_simple.json'),
    lines({
      id: 'live_simple_0-0-0',
      ground_truth: [{ get_current_weather: { location: ['Lisbon'], unit: ['celsius', ''] } }],
    }),
  );
  writeFileSync(
    join(dir, 'BFCL_v4_live_irrelevance.json'),
    lines({
      id: 'live_irrelevance_0-0-0',
      question: [[{ role: 'user', content: 'Tell me a joke' }]],
      function: [weather],
    }),
  );
  writeFileSync(
    join(dir, 'BFCL_v4_multi_turn_base.json'),
    lines({ id: 'multi_turn_base_0', question: [[{ role: 'user', content: 'cd /tmp' }]], function: [] }),
  );
  return dir;
}

describe('BFCL suites', () => {
  it('scores each category by the checker BFCL uses for it', () => {
    expect(['simple_python', 'live_simple', 'simple_java'].map(ruleForCategory)).toEqual([
      'simple',
      'simple',
      'simple',
    ]);
    expect(['multiple', 'live_multiple'].map(ruleForCategory)).toEqual(['multiple', 'multiple']);
    expect(['parallel', 'parallel_multiple', 'live_parallel', 'live_parallel_multiple'].map(ruleForCategory)).toEqual([
      'parallel',
      'parallel',
      'parallel',
      'parallel',
    ]);
    expect(['irrelevance', 'live_irrelevance', 'live_relevance'].map(ruleForCategory)).toEqual([
      'no-call',
      'no-call',
      'any-call',
    ]);
  });

  it('reads the live categories: system messages apart, earlier turns as history, answers from beside the file', () => {
    const dir = liveFolder();
    const { cases } = loadBfclSuite(join(dir, 'BFCL_v4_live_simple.json'));
    expect(cases[0]).toMatchObject({
      id: 'live_simple_0-0-0',
      category: 'live_simple',
      suite: 'BFCL live_simple',
      system: 'You are a weather bot.',
      history: [
        { role: 'user', text: 'Hi' },
        { role: 'assistant', text: 'Hello! Where are you?' },
      ],
      prompt: 'Weather in Lisbon, in celsius?',
      rule: 'simple',
      expected: [{ get_current_weather: { location: ['Lisbon'], unit: ['celsius', ''] } }],
    });
    expect(loadBfclSuite(join(dir, 'BFCL_v4_live_irrelevance.json')).cases[0]).toMatchObject({
      rule: 'no-call',
      expected: [],
    });
  });

  it('runs a folder of suites, and names the multi-turn file it leaves out and why', () => {
    const { suites, skipped } = loadSuites(liveFolder());
    expect(suites.map((s) => s.name)).toEqual(['BFCL live_irrelevance', 'BFCL live_simple']);
    expect(skipped).toHaveLength(1);
    expect(skipped[0]!.reason).toMatch(/multi_turn_base category is scored by running BFCL's own environments/);
  });

  it('refuses a file whose answers are missing, or a broken line, naming the file and line', () => {
    const dir = liveFolder();
    const file = join(dir, 'BFCL_v4_live_multiple.json');
    writeFileSync(
      file,
      lines({ id: 'live_multiple_0-0-0', question: [[{ role: 'user', content: 'x' }]], function: [weather] }),
    );
    expect(() => loadBfclSuite(file)).toThrow(SuiteError);
    expect(() => loadBfclSuite(file)).toThrow(/need their answers in .*possible_answer.*BFCL_v4_live_multiple\.json/);
    writeFileSync(join(dir, 'BFCL_v4_live_irrelevance.json'), '{"id": "a", "question": [[\n');
    expect(() => loadBfclSuite(join(dir, 'BFCL_v4_live_irrelevance.json'))).toThrow(/:1 is not valid JSON/);
  });

  it('reads every BFCL file of the shared data: 1,240 cases, each with its answer where one is needed', () => {
    const { suites, skipped } = loadSuites(bfclDir);
    expect(skipped).toEqual([]);
    const cases = suites.flatMap((s) => s.cases);
    expect(cases).toHaveLength(1240);
    for (const c of cases) {
      if (c.rule === 'no-call') expect(c.expected).toEqual([]);
      else expect(c.expected.length, c.id).toBeGreaterThan(0);
    }
  });
});
