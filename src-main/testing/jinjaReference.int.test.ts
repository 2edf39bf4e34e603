import { describe, expect, it } from 'vitest';
import { CHAT_TEMPLATE_NAMES, chatTemplateFile, type ChatTemplateName } from '../llm/chatTemplates/chatTemplates.js';
import type { TemplateContext } from '../llm/dialect/templateTypes.js';
import {
  pythonJinjaResults,
  qwenSpecialTokens,
  renderManyWithPythonJinja,
  renderWithHuggingFaceJinja,
  renderWithPythonJinja,
} from './jinjaReference.js';
import { TEMPLATE_CASES } from './templateCases.js';

// The harness the dialect tests stand on: both reference renderers (python3 with jinja2, as transformers renders
// a template, and @huggingface/jinja) on every case and every template generated models carry.

type Family = 'json' | 'elements';
const FAMILY: Record<ChatTemplateName, Family> = {
  qwen3: 'json',
  'qwen3.5': 'elements',
  'qwen3.5-thinking-off': 'elements',
};

/**
 * Where @huggingface/jinja writes something else than Python: for a case and a template family (Qwen3's JSON calls,
 * Qwen3.5's per-parameter elements), either the texts Python writes and what @huggingface/jinja writes in their
 * place (every occurrence), or the error @huggingface/jinja throws. Every other case renders identically.
 */
type Difference =
  { readonly replaced: ReadonlyArray<readonly [python: string, huggingFace: string]> } | { readonly throws: RegExp };
const HUGGING_FACE_DIFFERS: Readonly<Record<string, Partial<Record<Family, Difference>>>> = {
  // An integral float is an int in JavaScript: 5.0 loses its fraction, under tojson and |string alike.
  'an integral float and an int as arguments': {
    json: { replaced: [['"value": 5.0,', '"value": 5,']] },
    elements: { replaced: [['<parameter=value>\n5.0\n', '<parameter=value>\n5\n']] },
  },
  // 1.5e3 is Python's float 1500.0 (an int in JavaScript); 2.5e-7 is Python's repr 2.5e-07, JavaScript's 2.5e-7.
  'fractional, negative and exponent numbers as arguments': {
    json: {
      replaced: [
        ['"value": 1500.0,', '"value": 1500,'],
        ['"value": 2.5e-07,', '"value": 2.5e-7,'],
      ],
    },
    elements: {
      replaced: [
        ['<parameter=value>\n1500.0\n', '<parameter=value>\n1500\n'],
        ['<parameter=value>\n2.5e-07\n', '<parameter=value>\n2.5e-7\n'],
      ],
    },
  },
  // Qwen3.5 writes a scalar argument with |string: Python's True and False, JavaScript's true and false.
  'boolean arguments': {
    elements: {
      replaced: [
        ['<parameter=includeHidden>\nTrue\n', '<parameter=includeHidden>\ntrue\n'],
        ['<parameter=includeHidden>\nFalse\n', '<parameter=includeHidden>\nfalse\n'],
      ],
    },
  },
  // Python writes None; @huggingface/jinja has no |string for null.
  'a null argument': { elements: { throws: /Cannot apply filter "string" to type: NullValue/ } },
};

function expectedHuggingFace(python: string, difference: Difference | undefined): string {
  if (difference === undefined || 'throws' in difference) return python;
  let text = python;
  for (const [from, to] of difference.replaced) {
    expect(text, `Python writes ${JSON.stringify(from)}`).toContain(from);
    text = text.replaceAll(from, to);
  }
  return text;
}

const contexts = TEMPLATE_CASES.map((c) => c.context);
/** Python's text of every case, per template: one python3 process each. */
const PYTHON = new Map(
  CHAT_TEMPLATE_NAMES.map((name) => [name, renderManyWithPythonJinja(chatTemplateFile(name), contexts)] as const),
);

describe.each(CHAT_TEMPLATE_NAMES)('the %s template rendered by Python and by @huggingface/jinja', (name) => {
  const template = chatTemplateFile(name);
  const python = PYTHON.get(name)!;

  it.each(TEMPLATE_CASES.map((c, i) => [c.name, i] as const))('%s', (caseName, index) => {
    const difference = HUGGING_FACE_DIFFERS[caseName]?.[FAMILY[name]];
    if (difference !== undefined && 'throws' in difference) {
      expect(() => renderWithHuggingFaceJinja(template, contexts[index]!)).toThrow(difference.throws);
      return;
    }
    expect(renderWithHuggingFaceJinja(template, contexts[index]!)).toBe(
      expectedHuggingFace(python[index]!, difference),
    );
  });

  it('lists no difference for a case that is not there', () => {
    const names = new Set(TEMPLATE_CASES.map((c) => c.name));
    expect(Object.keys(HUGGING_FACE_DIFFERS).filter((caseName) => !names.has(caseName))).toEqual([]);
  });

  it('renders one context alone as it renders it among the others', () => {
    expect(renderWithPythonJinja(template, contexts[0]!)).toBe(python[0]);
  });
});

/** The end of the rendering: the generation prompt, after the last user turn. */
function generationPrompt(text: string): string {
  return text.slice(text.lastIndexOf('<|im_end|>\n') + '<|im_end|>\n'.length);
}

function caseNamed(name: string): TemplateContext {
  const found = TEMPLATE_CASES.find((c) => c.name === name);
  if (!found) throw new Error(`no case named ${name}`);
  return found.context;
}

describe("Python's rendering, as the models were trained on it", () => {
  const rendered = (name: ChatTemplateName, caseName: string) =>
    PYTHON.get(name)![TEMPLATE_CASES.findIndex((c) => c.name === caseName)]!;

  it('opens or closes a thought in the generation prompt as each template says', () => {
    const prompts = Object.fromEntries(
      CHAT_TEMPLATE_NAMES.map((name) => [
        name,
        [
          'system prompt with tools, a user turn, generation prompt',
          'generation prompt with thinking on',
          'generation prompt with thinking off',
        ].map((caseName) => generationPrompt(rendered(name, caseName))),
      ]),
    );
    const open = '<|im_start|>assistant\n<think>\n';
    const closed = '<|im_start|>assistant\n<think>\n\n</think>\n\n';
    expect(prompts).toEqual({
      qwen3: ['<|im_start|>assistant\n', '<|im_start|>assistant\n', closed],
      'qwen3.5': [open, open, closed],
      'qwen3.5-thinking-off': [closed, open, closed],
    });
  });

  it('keeps 5.0 a float and 5 an int, writes True and None, and keeps non-ASCII text unescaped', () => {
    const numbers = 'an integral float and an int as arguments';
    expect(rendered('qwen3', numbers)).toContain('{"value": 5.0, "from": "km", "to": "mi", "precision": 2}');
    expect(rendered('qwen3.5', numbers)).toContain('<parameter=value>\n5.0\n</parameter>');
    expect(rendered('qwen3.5', numbers)).toContain('<parameter=precision>\n2\n</parameter>');
    expect(rendered('qwen3.5', 'boolean arguments')).toContain('<parameter=includeHidden>\nTrue\n</parameter>');
    expect(rendered('qwen3.5', 'a null argument')).toContain('<parameter=contains>\nNone\n</parameter>');
    expect(rendered('qwen3', 'a null argument')).toContain('"contains": null');
    // ensure_ascii=False: the tool's description in the system prompt, as written.
    for (const name of CHAT_TEMPLATE_NAMES) {
      const text = rendered(name, 'non-ASCII text in a user turn and a result');
      expect(text).toContain('"description": "Envoie un e-mail — café, 日本語, 📧:');
      expect(text).toContain('Réserve un café à 日本橋 demain à 9 h 🎉');
      expect(text).not.toContain('\\u');
    }
  });

  it('writes the two Qwen3.5 templates alike wherever enable_thinking is set', () => {
    const set = contexts.filter((c) => c.enable_thinking !== undefined || !c.add_generation_prompt);
    expect(set.length).toBeGreaterThan(2);
    const alike = (name: ChatTemplateName) => PYTHON.get(name)!.filter((_, i) => set.includes(contexts[i]!));
    expect(alike('qwen3.5-thinking-off')).toEqual(alike('qwen3.5'));
  });
});

describe('the Python renderer', () => {
  it("gives the template's own error for the context that raised it, and renders the others", () => {
    const noUser: TemplateContext = { messages: [{ role: 'system', content: 'Alone.' }], add_generation_prompt: true };
    const results = pythonJinjaResults(chatTemplateFile('qwen3.5'), [
      noUser,
      caseNamed('a conversation without tools'),
    ]);
    expect(results[0]).toEqual({ error: 'TemplateError: No user query found in messages.' });
    expect(results[1]).toHaveProperty('text');
    expect(() => renderWithPythonJinja(chatTemplateFile('qwen3.5'), noUser)).toThrow(
      /could not render context 0: TemplateError: No user query found in messages\./,
    );
    expect(() => renderWithHuggingFaceJinja(chatTemplateFile('qwen3.5'), noUser)).toThrow(
      'No user query found in messages.',
    );
  });

  it("has transformers' environment: special tokens, tojson's options, {% generation %}, loop controls", () => {
    // trim_blocks drops the newline after a block tag, so the last three lines run together.
    const template = [
      '{{ eos_token }}|{{ pad_token }}|{{ bos_token is defined }}',
      '{{ {"b": 1, "a": [1, 2]} | tojson(indent=2, sort_keys=true) }}',
      '{{ {"k": "v"} | tojson(separators=(",", ":")) }}',
      '{% generation %}kept{% endgeneration %}',
      '{% for x in [1, 2, 3] %}{% if x == 2 %}{% break %}{% endif %}{{ x }}{% endfor %}',
      '{{ strftime_now("%Y") | length }}',
    ].join('\n');
    const context: TemplateContext = { messages: [], add_generation_prompt: false };
    expect(qwenSpecialTokens()).toMatchObject({ eos_token: '<|im_end|>', pad_token: '<|endoftext|>' });
    expect(renderWithPythonJinja(template, context)).toBe(
      ['<|im_end|>|<|endoftext|>|False', '{\n  "a": [\n    1,\n    2\n  ],\n  "b": 1\n}', '{"k":"v"}', 'kept14'].join(
        '\n',
      ),
    );
  });
});
