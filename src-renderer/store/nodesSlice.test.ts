import { describe, expect, it } from 'vitest';
import type {
  ApiRequest,
  HomebodyApi,
  ModelInfo,
  ModelState,
  NetworkSettingsView,
  NodeProbe,
  RemoteNode,
} from '../../src-shared/contract/index.js';
import { ApiCallError } from '../bridge/apiError.js';
import { createAppStore } from './createAppStore.js';
import { nodeEngineState, protocolLabel } from './nodesView.js';
import { deferred, fakeApi, memoryStorage } from '../testing/testFixtures.js';

/** A valid SHA-256 fingerprint: 32 uppercase hex pairs joined by colons. */
const FINGERPRINT = Array.from({ length: 32 }, (_, i) => (i * 7).toString(16).toUpperCase().padStart(2, '0')).join(':');

function makeNode(overrides: Partial<RemoteNode> = {}): RemoteNode {
  return {
    id: 'n1',
    label: 'llama-server on 192.168.1.20:8080',
    url: 'http://192.168.1.20:8080',
    model: 'qwen3-8b-q4.gguf',
    contextSize: 8192,
    protocol: 'dialect',
    fingerprint: null,
    hasApiKey: false,
    allowOffline: false,
    active: false,
    addedAt: 1_700_000_000_000,
    ...overrides,
  };
}

function makeProbe(overrides: Partial<NodeProbe> = {}): NodeProbe {
  return {
    url: 'http://192.168.1.20:8080',
    model: 'qwen3-8b-q4.gguf',
    models: ['qwen3-8b-q4.gguf', 'other.gguf'],
    contextSize: 8192,
    protocol: 'dialect',
    fingerprint: null,
    plainHttp: true,
    ...overrides,
  };
}

function makeInfo(path: string): ModelInfo {
  return {
    path,
    name: 'qwen3-8b-q4.gguf',
    architecture: 'qwen3',
    sizeBytes: 0,
    contextSize: 8192,
    trainContextSize: 32768,
    synthetic: false,
    gpu: 'remote',
  };
}

const networkView = (): NetworkSettingsView => ({ offline: true, rules: [], features: [] });

/** Lets the `void`ed follow-up calls (a list or Privacy reload) settle. */
const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

function setup(methods: Partial<HomebodyApi> = {}) {
  return createAppStore({ api: fakeApi(methods), storage: memoryStorage() });
}

describe('nodesView', () => {
  it('names each protocol in words for people', () => {
    expect(protocolLabel('dialect')).toBe("llama-server, in the model's own format");
    expect(protocolLabel('openai')).toBe('OpenAI-compatible API');
  });

  it("reads a node's state from the model state whose path is remote:<id>", () => {
    const node = { id: 'n1' };
    expect(nodeEngineState(node, null)).toBe('idle');
    expect(nodeEngineState(node, { status: 'none' })).toBe('idle');
    expect(nodeEngineState(node, { status: 'loading', path: 'remote:n1', progress: 0.5 })).toBe('connecting');
    expect(nodeEngineState(node, { status: 'ready', info: makeInfo('remote:n1') })).toBe('ready');
    const error: ModelState = {
      status: 'error',
      path: 'remote:n1',
      error: { code: 'REMOTE_UNREACHABLE', message: 'No answer from 192.168.1.20:8080.' },
    };
    expect(nodeEngineState(node, error)).toBe('error');
  });

  it('says idle when the model state is about another model', () => {
    const node = { id: 'n1' };
    expect(nodeEngineState(node, { status: 'loading', path: 'remote:n2', progress: 0 })).toBe('idle');
    expect(nodeEngineState(node, { status: 'ready', info: makeInfo('/data/models/n1') })).toBe('idle');
    // A longer id that starts with this one is another node.
    expect(nodeEngineState(node, { status: 'ready', info: makeInfo('remote:n10') })).toBe('idle');
    expect(nodeEngineState(node, { status: 'ready', info: makeInfo('n1') })).toBe('idle');
    expect(
      nodeEngineState(node, {
        status: 'error',
        path: '/data/models/broken.gguf',
        error: { code: 'MODEL_NOT_FOUND', message: 'No such file.' },
      }),
    ).toBe('idle');
  });
});

describe('the nodes slice', () => {
  it('loads the list, and keeps it when a later load fails', async () => {
    let fail = false;
    const store = setup({
      'nodes.list': async () => {
        if (fail) throw new ApiCallError('INTERNAL', 'The Host could not read its nodes.');
        return { nodes: [makeNode()] };
      },
    });
    expect(store.getState().nodes).toBeNull();
    await store.getState().loadNodes();
    expect(store.getState().nodes).toEqual([makeNode()]);
    expect(store.getState().nodesError).toBeNull();

    fail = true;
    await store.getState().loadNodes();
    expect(store.getState().nodesError).toEqual({ code: 'INTERNAL', message: 'The Host could not read its nodes.' });
    expect(store.getState().nodes).toEqual([makeNode()]);

    fail = false;
    await store.getState().loadNodes();
    expect(store.getState().nodesError).toBeNull();
  });

  it('refuses to check an empty address without asking the Host', async () => {
    const probes: Array<ApiRequest<'nodes.probe'>> = [];
    const store = setup({
      'nodes.probe': async (request) => {
        probes.push(request);
        return makeProbe();
      },
    });
    store.setState({
      nodeProbe: makeProbe(),
      nodesActionErrors: { add: { code: 'REMOTE_UNREACHABLE', message: 'No answer.' } },
    });
    for (const url of ['', '   \t ']) {
      const outcome = await store.getState().probeNode(url, { allowOffline: false });
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) expect(outcome.error.code).toBe('INVALID_REQUEST');
      expect(store.getState().nodesActionErrors.probe?.code).toBe('INVALID_REQUEST');
      expect(store.getState().nodesActionErrors.probe?.message).toContain("server's address");
    }
    expect(probes).toEqual([]);
    // The earlier answer and the earlier add's error are gone with the new check.
    expect(store.getState().nodeProbe).toBeNull();
    expect(store.getState().nodesActionErrors.add).toBeUndefined();
    expect(store.getState().nodesPending.has('probe')).toBe(false);
  });

  it('checks the trimmed address, leaving out an empty key and never sending the name', async () => {
    const probes: Array<ApiRequest<'nodes.probe'>> = [];
    const answer = deferred<NodeProbe>();
    const store = setup({
      'nodes.probe': (request) => {
        probes.push(request);
        return answer.promise;
      },
    });
    const checking = store
      .getState()
      .probeNode('  http://192.168.1.20:8080/v1  ', { apiKey: '   ', label: 'Desk', allowOffline: false });
    expect(store.getState().nodesPending.has('probe')).toBe(true);
    expect(probes).toStrictEqual([{ url: 'http://192.168.1.20:8080/v1' }]);
    answer.resolve(makeProbe());
    const outcome = await checking;
    expect(outcome).toEqual({ ok: true, value: makeProbe() });
    expect(store.getState().nodeProbe).toEqual(makeProbe());
    expect(store.getState().nodesPending.has('probe')).toBe(false);
    expect(store.getState().nodesActionErrors.probe).toBeUndefined();
  });

  it('sends a trimmed key and the offline choice with the check', async () => {
    const probes: Array<ApiRequest<'nodes.probe'>> = [];
    const store = setup({
      'nodes.probe': async (request) => {
        probes.push(request);
        return makeProbe({ url: 'https://gpu.example.org', fingerprint: FINGERPRINT, plainHttp: false });
      },
    });
    await store
      .getState()
      .probeNode('https://gpu.example.org', { apiKey: ' sk-secret ', label: '  ', allowOffline: true });
    expect(probes).toStrictEqual([{ url: 'https://gpu.example.org', apiKey: 'sk-secret', allowOffline: true }]);
    expect(store.getState().nodeProbe?.fingerprint).toBe(FINGERPRINT);
  });

  it('shows a failed check under "probe" and keeps no answer', async () => {
    const store = setup({
      'nodes.probe': async () => {
        throw new ApiCallError('REMOTE_UNREACHABLE', 'Nothing answered at 192.168.1.20:8080.');
      },
    });
    store.setState({ nodeProbe: makeProbe() });
    const outcome = await store.getState().probeNode('http://192.168.1.20:8080', { allowOffline: false });
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'REMOTE_UNREACHABLE', message: 'Nothing answered at 192.168.1.20:8080.' },
    });
    expect(store.getState().nodesActionErrors.probe).toEqual({
      code: 'REMOTE_UNREACHABLE',
      message: 'Nothing answered at 192.168.1.20:8080.',
    });
    expect(store.getState().nodeProbe).toBeNull();
    expect(store.getState().nodesPending.size).toBe(0);
  });

  it('reloads the Privacy network list after a check that allows offline, only when it was loaded', async () => {
    let networkLoads = 0;
    const store = setup({
      'nodes.probe': async () => makeProbe(),
      'privacy.network': async () => {
        networkLoads += 1;
        return networkView();
      },
    });
    await store.getState().probeNode('http://192.168.1.20:8080', { allowOffline: true });
    await settle();
    expect(networkLoads).toBe(0);

    store.setState({ privacyNetwork: networkView() });
    await store.getState().probeNode('http://192.168.1.20:8080', { allowOffline: false });
    await settle();
    expect(networkLoads).toBe(0);
    await store.getState().probeNode('http://192.168.1.20:8080', { allowOffline: true });
    await settle();
    expect(networkLoads).toBe(1);
  });

  it('refuses to add before a check, without asking the Host', async () => {
    const adds: Array<ApiRequest<'nodes.add'>> = [];
    const store = setup({
      'nodes.add': async (request) => {
        adds.push(request);
        return makeNode();
      },
    });
    const outcome = await store.getState().addNode({ allowOffline: false });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error.code).toBe('INVALID_REQUEST');
    expect(store.getState().nodesActionErrors.add?.message).toContain('Check the server first');
    expect(adds).toEqual([]);
    expect(store.getState().nodes).toBeNull();
  });

  it('adds exactly what the check showed over https, with the trimmed optional fields', async () => {
    const adds: Array<ApiRequest<'nodes.add'>> = [];
    const answer = deferred<RemoteNode>();
    const added = makeNode({
      id: 'n2',
      label: 'Desk',
      url: 'https://gpu.example.org',
      fingerprint: FINGERPRINT,
      hasApiKey: true,
      allowOffline: true,
    });
    const store = setup({
      'nodes.add': (request) => {
        adds.push(request);
        return answer.promise;
      },
    });
    store.setState({
      nodes: [makeNode()],
      nodeProbe: makeProbe({
        url: 'https://gpu.example.org',
        model: 'other.gguf',
        fingerprint: FINGERPRINT,
        plainHttp: false,
      }),
    });
    const adding = store.getState().addNode({ apiKey: ' sk-secret ', label: ' Desk ', allowOffline: true });
    expect(store.getState().nodesPending.has('add')).toBe(true);
    expect(adds).toStrictEqual([
      {
        url: 'https://gpu.example.org',
        model: 'other.gguf',
        fingerprint: FINGERPRINT,
        apiKey: 'sk-secret',
        label: 'Desk',
        allowOffline: true,
      },
    ]);
    answer.resolve(added);
    expect(await adding).toEqual({ ok: true, value: added });
    expect(store.getState().nodesPending.has('add')).toBe(false);
    expect(store.getState().nodeProbe).toBeNull();
    expect(store.getState().nodes).toEqual([makeNode(), added]);
    expect(store.getState().nodesActionErrors.add).toBeUndefined();
  });

  it('adds a plain-http server with no fingerprint and no empty fields', async () => {
    const adds: Array<ApiRequest<'nodes.add'>> = [];
    const store = setup({
      'nodes.add': async (request) => {
        adds.push(request);
        return makeNode();
      },
    });
    store.setState({ nodes: [], nodeProbe: makeProbe() });
    await store.getState().addNode({ apiKey: '', label: '   ', allowOffline: false });
    expect(adds).toStrictEqual([{ url: 'http://192.168.1.20:8080', model: 'qwen3-8b-q4.gguf' }]);
    expect(store.getState().nodes).toEqual([makeNode()]);
  });

  it('keeps the check shown when the add fails, with the error under "add"', async () => {
    const store = setup({
      'nodes.add': async () => {
        throw new ApiCallError('REMOTE_CERTIFICATE_CHANGED', 'The server shows another certificate now.');
      },
    });
    const probe = makeProbe({ url: 'https://gpu.example.org', fingerprint: FINGERPRINT, plainHttp: false });
    store.setState({ nodes: [makeNode()], nodeProbe: probe });
    const outcome = await store.getState().addNode({ allowOffline: false });
    expect(outcome).toEqual({
      ok: false,
      error: { code: 'REMOTE_CERTIFICATE_CHANGED', message: 'The server shows another certificate now.' },
    });
    expect(store.getState().nodeProbe).toEqual(probe);
    expect(store.getState().nodesActionErrors.add?.code).toBe('REMOTE_CERTIFICATE_CHANGED');
    expect(store.getState().nodes).toEqual([makeNode()]);
    expect(store.getState().nodesPending.size).toBe(0);
  });

  it('asks for the whole list when a node is added before the list was loaded', async () => {
    let lists = 0;
    const store = setup({
      'nodes.add': async () => makeNode({ id: 'n2' }),
      'nodes.list': async () => {
        lists += 1;
        return { nodes: [makeNode(), makeNode({ id: 'n2' })] };
      },
    });
    store.setState({ nodeProbe: makeProbe() });
    await store.getState().addNode({ allowOffline: false });
    await settle();
    expect(lists).toBe(1);
    expect(store.getState().nodes?.map((n) => n.id)).toEqual(['n1', 'n2']);
  });

  it('drops a list answer that was asked for before an add patched the list', async () => {
    const list = deferred<{ nodes: RemoteNode[] }>();
    const store = setup({
      'nodes.list': () => list.promise,
      'nodes.add': async () => makeNode({ id: 'n2' }),
    });
    store.setState({ nodes: [makeNode()], nodeProbe: makeProbe() });
    const loading = store.getState().loadNodes();
    await store.getState().addNode({ allowOffline: false });
    expect(store.getState().nodes?.map((n) => n.id)).toEqual(['n1', 'n2']);
    // The Host read its list before the add: it lacks n2.
    list.resolve({ nodes: [makeNode()] });
    await loading;
    expect(store.getState().nodes?.map((n) => n.id)).toEqual(['n1', 'n2']);
  });

  it('drops a stale list failure too', async () => {
    const list = deferred<{ nodes: RemoteNode[] }>();
    const store = setup({
      'nodes.list': () => list.promise,
      'nodes.setAllowOffline': async () => makeNode({ allowOffline: true }),
    });
    store.setState({ nodes: [makeNode()] });
    const loading = store.getState().loadNodes();
    expect(await store.getState().setNodeAllowOffline('n1', true)).toBeNull();
    list.reject(new ApiCallError('INTERNAL', 'late'));
    await loading;
    expect(store.getState().nodesError).toBeNull();
    expect(store.getState().nodes).toEqual([makeNode({ allowOffline: true })]);
  });

  it('forgets the check on cancel, with its add error', () => {
    const store = setup();
    store.setState({
      nodeProbe: makeProbe(),
      nodesActionErrors: {
        add: { code: 'MODEL_ALREADY_PRESENT', message: 'That server is added already.' },
        n1: { code: 'REMOTE_UNREACHABLE', message: 'No answer.' },
      },
    });
    store.getState().cancelNodeProbe();
    expect(store.getState().nodeProbe).toBeNull();
    expect(store.getState().nodesActionErrors).toEqual({ n1: { code: 'REMOTE_UNREACHABLE', message: 'No answer.' } });
  });

  it('takes a removed node off the list and reloads the Privacy network list when loaded', async () => {
    const removes: Array<ApiRequest<'nodes.remove'>> = [];
    const answer = deferred<{ id: string; message: string }>();
    let networkLoads = 0;
    const store = setup({
      'nodes.remove': (request) => {
        removes.push(request);
        return answer.promise;
      },
      'privacy.network': async () => {
        networkLoads += 1;
        return networkView();
      },
    });
    store.setState({
      nodes: [makeNode(), makeNode({ id: 'n2' })],
      nodesActionErrors: { n1: { code: 'REMOTE_UNREACHABLE', message: 'No answer.' } },
      privacyNetwork: networkView(),
    });
    const removing = store.getState().removeNode('n1');
    expect(store.getState().nodesPending.has('remove:n1')).toBe(true);
    expect(removes).toStrictEqual([{ id: 'n1' }]);
    answer.resolve({ id: 'n1', message: 'Removed.' });
    expect(await removing).toEqual({ ok: true, value: { id: 'n1', message: 'Removed.' } });
    await settle();
    expect(store.getState().nodes?.map((n) => n.id)).toEqual(['n2']);
    expect(store.getState().nodesActionErrors.n1).toBeUndefined();
    expect(store.getState().nodesPending.size).toBe(0);
    expect(networkLoads).toBe(1);
  });

  it('keeps a node whose removal failed, and answers why', async () => {
    const store = setup({
      'nodes.remove': async () => {
        throw new ApiCallError('MODEL_NOT_FOUND', 'No such node.');
      },
    });
    store.setState({ nodes: [makeNode()] });
    expect(await store.getState().removeNode('n1')).toEqual({
      ok: false,
      error: { code: 'MODEL_NOT_FOUND', message: 'No such node.' },
    });
    expect(store.getState().nodes).toEqual([makeNode()]);
    expect(store.getState().nodesPending.size).toBe(0);
  });

  it("replaces a node with the Host's answer when offline is allowed, and reloads Privacy only if loaded", async () => {
    const requests: Array<ApiRequest<'nodes.setAllowOffline'>> = [];
    let networkLoads = 0;
    const store = setup({
      'nodes.setAllowOffline': async (request) => {
        requests.push(request);
        return makeNode({ id: request.id, allowOffline: request.allow });
      },
      'privacy.network': async () => {
        networkLoads += 1;
        return networkView();
      },
    });
    store.setState({ nodes: [makeNode(), makeNode({ id: 'n2' })] });
    expect(await store.getState().setNodeAllowOffline('n2', true)).toBeNull();
    await settle();
    expect(requests).toStrictEqual([{ id: 'n2', allow: true }]);
    expect(store.getState().nodes).toEqual([makeNode(), makeNode({ id: 'n2', allowOffline: true })]);
    expect(networkLoads).toBe(0);

    store.setState({ privacyNetwork: networkView() });
    expect(await store.getState().setNodeAllowOffline('n2', false)).toBeNull();
    await settle();
    expect(requests).toStrictEqual([
      { id: 'n2', allow: true },
      { id: 'n2', allow: false },
    ]);
    expect(store.getState().nodes?.[1]?.allowOffline).toBe(false);
    expect(networkLoads).toBe(1);
  });

  it("shows a failed offline switch under the node's id and leaves the node as it was", async () => {
    const store = setup({
      'nodes.setAllowOffline': async () => {
        throw new ApiCallError('MODEL_NOT_FOUND', 'No such node.');
      },
    });
    store.setState({ nodes: [makeNode()] });
    expect(await store.getState().setNodeAllowOffline('n1', true)).toEqual({
      code: 'MODEL_NOT_FOUND',
      message: 'No such node.',
    });
    expect(store.getState().nodesActionErrors.n1?.code).toBe('MODEL_NOT_FOUND');
    expect(store.getState().nodes).toEqual([makeNode()]);
    expect(store.getState().nodesPending.size).toBe(0);
  });

  it('uses a node under "use:<id>" and lists the nodes again once it is connected', async () => {
    const uses: Array<ApiRequest<'nodes.use'>> = [];
    const answer = deferred<ModelState>();
    let lists = 0;
    const store = setup({
      'nodes.use': (request) => {
        uses.push(request);
        return answer.promise;
      },
      'nodes.list': async () => {
        lists += 1;
        return { nodes: [makeNode({ active: true })] };
      },
    });
    store.setState({ nodes: [makeNode()] });
    const using = store.getState().useNode('n1');
    expect(store.getState().nodesPending.has('use:n1')).toBe(true);
    expect(uses).toStrictEqual([{ id: 'n1' }]);
    answer.resolve({ status: 'ready', info: makeInfo('remote:n1') });
    expect(await using).toBeNull();
    await settle();
    expect(store.getState().nodesPending.has('use:n1')).toBe(false);
    expect(lists).toBe(1);
    expect(store.getState().nodes?.[0]?.active).toBe(true);
    expect(store.getState().nodesActionErrors.n1).toBeUndefined();
  });

  it("answers a node that could not be connected with its error, shown under the node's id", async () => {
    const why = { code: 'REMOTE_WRONG_MODEL' as const, message: 'The server now serves another model.' };
    let lists = 0;
    const store = setup({
      'nodes.use': async () => ({ status: 'error', path: 'remote:n1', error: why }),
      'nodes.list': async () => {
        lists += 1;
        return { nodes: [makeNode()] };
      },
    });
    expect(await store.getState().useNode('n1')).toEqual(why);
    await settle();
    expect(store.getState().nodesActionErrors.n1).toEqual(why);
    expect(store.getState().nodesPending.size).toBe(0);
    expect(lists).toBe(1);
  });

  it("shows a refused use under the node's id, and dismisses it", async () => {
    const store = setup({
      'nodes.use': async () => {
        throw new ApiCallError('REMOTE_UNREACHABLE', 'Nothing answered.');
      },
      'nodes.list': async () => ({ nodes: [makeNode()] }),
    });
    expect(await store.getState().useNode('n1')).toEqual({ code: 'REMOTE_UNREACHABLE', message: 'Nothing answered.' });
    await settle();
    expect(store.getState().nodesActionErrors.n1?.code).toBe('REMOTE_UNREACHABLE');
    store.getState().dismissNodesError('n1');
    expect(store.getState().nodesActionErrors.n1).toBeUndefined();
  });
});
