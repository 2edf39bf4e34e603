import { describe, expect, it } from 'vitest';
import { HomebodyError, type ModelState } from '../../src-shared/contract/index.js';
import type { ChatEngine, GenerateOptions, GenerateResult } from './engineTypes.js';
import { RoutedEngine, type ClosableEngine } from './routedEngine.js';

/** An engine whose loads succeed or fail as told, and which says who answered. */
class FakeEngine implements ClosableEngine {
  state: ModelState = { status: 'none' };
  disposed = false;
  closed = 0;
  private readonly listeners = new Set<(state: ModelState) => void>();
  constructor(
    readonly name: string,
    private readonly fails: (path: string) => boolean = () => false,
  ) {}
  onStateChange(listener: (state: ModelState) => void) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  private set(state: ModelState) {
    this.state = state;
    for (const l of this.listeners) l(state);
  }
  async load(path: string): Promise<ModelState> {
    this.set({ status: 'loading', path, progress: 0 });
    await new Promise((r) => setTimeout(r, 1));
    if (this.fails(path)) this.set({ status: 'error', path, error: { code: 'REMOTE_UNREACHABLE', message: 'down.' } });
    else
      this.set({
        status: 'ready',
        info: {
          path,
          name: `${this.name}:${path}`,
          architecture: 'x',
          sizeBytes: 0,
          contextSize: 4096,
          trainContextSize: 4096,
          synthetic: true,
          gpu: 'none',
        },
      });
    return this.state;
  }
  async generate(options: GenerateOptions): Promise<GenerateResult> {
    options.onText(this.name);
    return {
      text: this.name,
      reasoning: '',
      stopReason: 'complete',
      stats: { promptTokens: 1, completionTokens: 1, ttftMs: 0, tokensPerSecond: 1 },
      evaluatedPromptTokens: 1,
    };
  }
  async close() {
    this.closed += 1;
    this.set({ status: 'none' });
    return this.state;
  }
  async dispose() {
    this.disposed = true;
    this.set({ status: 'none' });
  }
}

function setup(remoteFails = (_: string) => false) {
  const local = new FakeEngine('local');
  const remotes: FakeEngine[] = [];
  const engine = new RoutedEngine({
    local,
    openRemote: (reference) => {
      if (reference === 'remote:gone') throw new HomebodyError('MODEL_NOT_FOUND', 'There is no such node.');
      const remote = new FakeEngine('remote', remoteFails);
      remotes.push(remote);
      return remote;
    },
  });
  const heard: string[] = [];
  engine.onStateChange((s) => heard.push(s.status === 'ready' ? `ready ${s.info.path}` : s.status));
  return { local, remotes, engine, heard };
}

const reply = async (engine: ChatEngine): Promise<string> =>
  (
    await engine.generate({
      history: [],
      prompt: 'hi',
      maxTokens: 1,
      temperature: 0,
      signal: new AbortController().signal,
      onText: () => {},
      onReasoning: () => {},
    })
  ).text;

describe('RoutedEngine', () => {
  it('sends replies to the node once it is ready, and closes the local model to free its memory', async () => {
    const { local, remotes, engine, heard } = setup();
    await engine.load('/m.gguf');
    expect(await reply(engine)).toBe('local');
    const state = await engine.load('remote:n1');
    expect(state).toMatchObject({ status: 'ready', info: { path: 'remote:n1' } });
    expect(await reply(engine)).toBe('remote');
    expect(local.closed).toBe(1);
    // The local model's close is not heard as the chat's state: the node's is.
    expect(heard).toEqual(['loading', 'ready /m.gguf', 'loading', 'ready remote:n1']);
    expect(engine.state).toMatchObject({ status: 'ready', info: { path: 'remote:n1' } });
    expect(remotes[0]!.disposed).toBe(false);
  });

  it('keeps the model in use when a node cannot be reached, and says so', async () => {
    const { local, engine, remotes, heard } = setup(() => true);
    await engine.load('/m.gguf');
    await expect(engine.load('remote:n1')).rejects.toMatchObject({
      code: 'REMOTE_UNREACHABLE',
      message: 'down. local:/m.gguf is still the model in use.',
    });
    expect(engine.state).toMatchObject({ status: 'ready', info: { path: '/m.gguf' } });
    expect(heard.at(-1)).toBe('ready /m.gguf');
    expect(local.closed).toBe(0);
    expect(remotes[0]!.disposed).toBe(true);
    expect(await reply(engine)).toBe('local');
  });

  it("shows a node's failure as the state when nothing was in use (a first start), and refuses a removed node", async () => {
    const { engine } = setup(() => true);
    expect(await engine.load('remote:n1')).toMatchObject({ status: 'error', error: { code: 'REMOTE_UNREACHABLE' } });
    expect(engine.state.status).toBe('error');
    expect(await engine.load('remote:gone')).toMatchObject({ status: 'error', error: { code: 'MODEL_NOT_FOUND' } });
    await engine.load('/m.gguf');
    await expect(engine.load('remote:gone')).rejects.toMatchObject({ code: 'MODEL_NOT_FOUND' });
    expect(engine.state).toMatchObject({ status: 'ready', info: { path: '/m.gguf' } });
  });

  it('goes back to a model file: the node is disconnected once the file is open', async () => {
    const { engine, remotes } = setup();
    await engine.load('remote:n1');
    await engine.load('remote:n2');
    expect(remotes[0]!.disposed).toBe(true); // one node at a time
    expect(await engine.load('/m.gguf')).toMatchObject({ status: 'ready' });
    expect(remotes[1]!.disposed).toBe(true);
    expect(await reply(engine)).toBe('local');
  });

  it('a local file that fails to open while a node is in use leaves the node in use', async () => {
    const local = new FakeEngine('local', (path) => path === '/broken.gguf');
    const engine = new RoutedEngine({ local, openRemote: () => new FakeEngine('remote') });
    await engine.load('remote:n1');
    await expect(engine.load('/broken.gguf')).rejects.toThrow(/is still the model in use/);
    expect(engine.state).toMatchObject({ status: 'ready', info: { path: 'remote:n1' } });
    expect(await reply(engine)).toBe('remote');
  });

  it('close disconnects a node and leaves nothing in use', async () => {
    const { engine, remotes } = setup();
    await engine.load('remote:n1');
    expect(await engine.close()).toEqual({ status: 'none' });
    expect(remotes[0]!.disposed).toBe(true);
    expect(engine.state).toEqual({ status: 'none' });
  });

  it('changes one at a time: two quick changes end on the second', async () => {
    const { engine } = setup();
    const first = engine.load('remote:n1');
    const second = engine.load('/m.gguf');
    await Promise.all([first, second]);
    expect(engine.state).toMatchObject({ status: 'ready', info: { path: '/m.gguf' } });
    expect(await reply(engine)).toBe('local');
  });
});
