import { describe, expect, it } from 'vitest';
import type { Message } from '../../src-shared/contract/index.js';
import { answerNote, ONLY_THOUGHT_NOTE, runJson, statsLine } from './runOutput.js';

const reply = (overrides: Partial<Message> = {}): Message => ({
  id: 'r',
  taskId: 't',
  seq: 1,
  role: 'assistant',
  text: 'It is sunny.',
  reasoning: '',
  state: 'complete',
  createdAt: 1,
  stats: { promptTokens: 40, completionTokens: 5, ttftMs: 120.4, tokensPerSecond: 31.25 },
  error: null,
  ...overrides,
});
const user: Message = { ...reply(), id: 'u', seq: 0, role: 'user', text: 'Weather?', stats: null };

describe('homebody run --json', () => {
  it('keeps its keys, and adds no thought keys to a reply that did not think', () => {
    const final = reply({
      stats: { promptTokens: 40, completionTokens: 5, ttftMs: 1, tokensPerSecond: 5, reasoningTokens: 0 },
    });
    expect(runJson('t', [user, final], final)).toEqual({
      taskId: 't',
      messages: [
        { role: 'user', text: 'Weather?' },
        { role: 'assistant', text: 'It is sunny.' },
      ],
      stats: final.stats,
      state: 'complete',
    });
  });

  it('shows a reply that was all thought: its reasoning and the count of thought tokens', () => {
    const stats = { promptTokens: 40, completionTokens: 212, ttftMs: 90, tokensPerSecond: 30, reasoningTokens: 212 };
    const final = reply({ text: '', reasoning: 'The user wants the weather…', stats });
    const out = runJson('t', [user, final], final);
    expect(out).toMatchObject({ reasoning: 'The user wants the weather…', reasoningTokens: 212, stats });
    expect(out.messages.at(-1)).toEqual({ role: 'assistant', text: '' });
    expect(Object.keys(out)).toEqual(['taskId', 'messages', 'stats', 'state', 'reasoning', 'reasoningTokens']);
  });

  it('gives the thought of a reply recorded before tokens were counted, without a count', () => {
    const final = reply({ reasoning: 'Hmm.' });
    expect(runJson('t', [final], final)).toMatchObject({ reasoning: 'Hmm.' });
    expect(runJson('t', [final], final)).not.toHaveProperty('reasoningTokens');
  });
});

describe('homebody run, for a person', () => {
  it('says when the model only thought, and nothing when it answered or was stopped', () => {
    expect(answerNote(reply({ text: '', reasoning: 'thinking…' }))).toBe(ONLY_THOUGHT_NOTE);
    expect(answerNote(reply({ text: ' \n', reasoning: 'thinking…', state: 'truncated' }))).toBe(
      '(the model only thought; no answer)',
    );
    expect(answerNote(reply({ reasoning: 'thinking…' }))).toBeNull();
    expect(answerNote(reply({ text: '', reasoning: 'thinking…', state: 'stopped' }))).toBeNull();
    expect(answerNote(reply({ text: '', reasoning: '' }))).toBeNull();
  });

  it('counts the thought tokens in the figures line when there were any', () => {
    const line = '[complete] 5 tokens, 31.3 tokens/s, first token 120 ms, prompt 40 tokens · task t';
    expect(statsLine(reply(), 't')).toBe(line);
    const none = reply({
      stats: { promptTokens: 40, completionTokens: 5, ttftMs: 120.4, tokensPerSecond: 31.25, reasoningTokens: 0 },
    });
    expect(statsLine(none, 't')).toBe(line);
    const stats = {
      promptTokens: 40,
      completionTokens: 212,
      ttftMs: null,
      tokensPerSecond: null,
      reasoningTokens: 200,
    };
    expect(statsLine(reply({ stats }), 't')).toBe(
      '[complete] 212 tokens (200 thinking), - tokens/s, first token - ms, prompt 40 tokens · task t',
    );
    expect(statsLine(reply({ stats: null }), 't')).toBeNull();
  });
});
