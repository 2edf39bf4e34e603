import { describe, expect, it } from 'vitest';
import type { McpServerView } from '../../src-shared/contract/index.js';
import { ApiCallError } from '../bridge/apiError.js';
import { createAppStore } from './createAppStore.js';
import { deferred, fakeApi, memoryStorage } from '../testing/testFixtures.js';

const server = (overrides: Partial<McpServerView> = {}): McpServerView => ({
  name: 'files',
  transport: { kind: 'stdio', command: 'npx', args: [], envKeys: ['TOKEN'] },
  enabled: false,
  trustAnnotations: false,
  needsConfirmation: true,
  confirmation: null,
  status: 'stopped',
  error: null,
  tools: [],
  skipped: [],
  ...overrides,
});

describe('the MCP servers slice', () => {
  it('loads the servers, then follows the Host’s mcp.changed events', async () => {
    const store = createAppStore({
      api: fakeApi({ 'mcp.list': async () => ({ servers: [server()] }) }),
      storage: memoryStorage(),
    });
    expect(store.getState().mcpServers).toBeNull();
    await store.getState().loadMcp();
    expect(store.getState().mcpServers).toEqual([server()]);
    store.getState().applyEvent({ type: 'mcp.changed', servers: [server({ enabled: true, status: 'running' })] });
    expect(store.getState().mcpServers?.[0]?.status).toBe('running');
  });

  it('marks a server busy while its action runs, and shows the Host’s refusal', async () => {
    const answer = deferred<{ servers: McpServerView[] }>();
    const store = createAppStore({
      api: fakeApi({
        'mcp.setEnabled': () => answer.promise,
        'mcp.import': () =>
          Promise.reject(new ApiCallError('INVALID_REQUEST', 'mcpServers["b"] needs either "command"')),
      }),
      storage: memoryStorage(),
    });
    const enabling = store.getState().setMcpEnabled('files', true);
    expect(store.getState().mcpBusy).toEqual(['files']);
    answer.resolve({ servers: [server({ enabled: true, status: 'running' })] });
    expect(await enabling).toBeNull();
    expect(store.getState().mcpBusy).toEqual([]);
    expect(store.getState().mcpServers?.[0]?.enabled).toBe(true);

    const refused = await store.getState().importMcpJson('{"mcpServers": {"b": {}}}');
    expect(refused).toEqual({ code: 'INVALID_REQUEST', message: 'mcpServers["b"] needs either "command"' });
    expect(store.getState().mcpError?.message).toContain('mcpServers["b"]');
    expect(store.getState().mcpServers).toHaveLength(1);
  });

  it('switches trust in a server’s annotations, and answers a confirmation of its command', async () => {
    const calls: unknown[] = [];
    let waiting = true;
    const store = createAppStore({
      api: fakeApi({
        'mcp.setTrustAnnotations': async (request) => {
          calls.push(request);
          return { servers: [server({ trustAnnotations: request.trust })] };
        },
        'mcp.confirmCommand': async (request) => {
          calls.push(request);
          const accepted = waiting;
          waiting = false;
          return { accepted };
        },
      }),
      storage: memoryStorage(),
    });
    expect(await store.getState().setMcpTrustAnnotations('files', true)).toBeNull();
    expect(store.getState().mcpServers?.[0]?.trustAnnotations).toBe(true);

    expect(await store.getState().answerMcpConfirmation('c1', '493028')).toBeNull();
    // Answered again (or after it expired): the Host no longer waits, and the user is told why.
    expect(await store.getState().answerMcpConfirmation('c1', '493028')).toMatchObject({
      message: expect.stringContaining('This confirmation has ended'),
    });
    expect(store.getState().mcpError?.message).toContain('Switch the server on again');
    // A cancel that comes too late is no error.
    expect(await store.getState().answerMcpConfirmation('c1', null)).toBeNull();
    expect(calls).toEqual([
      { name: 'files', trust: true },
      { id: 'c1', code: '493028' },
      { id: 'c1', code: '493028' },
      { id: 'c1', code: null },
    ]);
  });
});
