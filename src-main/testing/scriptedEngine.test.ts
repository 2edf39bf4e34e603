import { describe, expect, it } from 'vitest';
import type { ReplyProgress, SteeredModel } from '../llm/llamaEngine.js';
import { scriptFor, scriptSteering } from './scriptedEngine.js';

// One token per character, as far as the steering can tell; the end of generation is token 0.
const model: SteeredModel = { tokenize: (text) => [...text].map((c) => c.codePointAt(0)!), eos: 0 };
const text = (tokens: readonly number[]) => String.fromCodePoint(...tokens);

/**
 * Plays a reply as node-llama-cpp would with a grammar that takes every favoured token: what follows a call's
 * opening is reported as its parameters until they are whole; the end token runs the call.
 */
function play(calls: Parameters<typeof scriptSteering>[0]) {
  const progress: ReplyProgress = { handled: 0, params: '', inFlight: 0, finished: false, overrun: false, text: '' };
  let ended = false;
  const favoured = scriptSteering(calls)(model, {} as never, progress, () => (ended = true))!;
  const written: string[] = [];
  let current = '';
  for (let step = 0; step < 1000 && !ended; step++) {
    const [token] = favoured();
    if (ended) break;
    if (token === undefined) throw new Error(`nothing favoured after "${current}"`);
    if (token === 0) {
      written.push(current);
      current = '';
      progress.handled++;
      progress.params = '';
      continue;
    }
    current += text([token]);
    const opening = `<tool_call>\n{"name": "${calls[progress.handled]!.name}`;
    const params = calls[progress.handled]!.params;
    if (current.length > opening.length && progress.params !== params) progress.params += text([token]);
  }
  return { written, ended };
}

describe('scriptSteering', () => {
  const calls = [
    { name: 'list_folder', params: '{"path": "Reports"}' },
    { name: 'read_text', params: '{"path": "a.txt"}' },
  ];

  it('opens each call by name, follows the parameters, closes it, and ends the reply once all are made', () => {
    const { written, ended } = play(calls);
    expect(ended).toBe(true);
    expect(written).toHaveLength(2);
    expect(written[0]).toContain('<tool_call>\n{"name": "list_folder');
    expect(written[0]).toContain('{"path": "Reports"}');
    expect(written[0]).toMatch(/}\n<\/tool_call>$/);
    expect(written[1]).toContain('"name": "read_text');
    expect(written[1]).toContain('{"path": "a.txt"}');
  });

  it('favours nothing while the grammar writes parameters that differ from the script', () => {
    const progress: ReplyProgress = { handled: 0, params: '', inFlight: 0, finished: false, overrun: false, text: '' };
    const favoured = scriptSteering(calls)(model, {} as never, progress, () => undefined)!;
    // Past the opening, the script's parameters and the grammar's disagree: the steering leaves it to the model.
    for (let i = 0; i < '<tool_call>\n{"name": "list_folder'.length; i++) favoured();
    progress.params = '{"other"';
    expect(favoured()).toEqual([]);
  });

  it('waits for a running call before ending: it closes the calls section instead', () => {
    const progress: ReplyProgress = { handled: 2, params: '', inFlight: 1, finished: false, overrun: false, text: '' };
    let ended = false;
    const favoured = scriptSteering(calls)(model, {} as never, progress, () => (ended = true))!;
    expect(favoured()).toEqual([0]);
    expect(ended).toBe(false);
    progress.inFlight = 0;
    expect(favoured()).toEqual([]);
    expect(ended).toBe(true);
  });
});

describe('which script a prompt plays', () => {
  const call = (name: string) => [{ name, params: '{}' }];
  const scripts = {
    'list my files': call('list_folder'),
    '*Go on with their request ("delete tmp.log, then list the rest")*': call('list_folder_after'),
    'a (literal) [prompt] with $pecial.chars?': call('literal'),
  };

  it('is the one the prompt names, trimmed; a name with no * matches only itself', () => {
    expect(scriptFor(scripts, '  list my files\n')).toEqual(call('list_folder'));
    expect(scriptFor(scripts, 'list my files please')).toBeUndefined();
    expect(scriptFor(scripts, 'a (literal) [prompt] with $pecial.chars?')).toEqual(call('literal'));
    expect(scriptFor(scripts, 'a (literal) [prompt] with $pecialXchars?')).toBeUndefined();
  });

  it('else the first whose * stands for any text, new lines included, matching the whole prompt', () => {
    const prompt =
      '[Homebody] The user decided the calls that waited in the approval queue:\n[delete_permanently: tmp.log] done\n' +
      'Go on with their request ("delete tmp.log, then list the rest"): do what is left of it.';
    expect(scriptFor(scripts, prompt)).toEqual(call('list_folder_after'));
    expect(scriptFor(scripts, prompt.replace('list the rest', 'list all'))).toBeUndefined();
  });
});
