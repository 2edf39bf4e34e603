import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_METHODS, PolicySchema, apiSchemas, type ApiMethod } from '../../src-shared/contract/index.js';
import {
  FUZZ_SEED,
  MAX_ERROR_MESSAGE,
  VALID_REQUESTS,
  bounded,
  describeContractFuzz,
  seededHost,
  snapshotData,
} from '../testing/contractFuzz.js';

/** The Host's own entry point, as every transport reaches it. */
let fixture: Awaited<ReturnType<typeof seededHost>>;
beforeAll(async () => {
  fixture = await seededHost();
});
afterAll(() => fixture.dispose());

describe('the fuzzer', () => {
  it('starts its mutations from a valid request of every method', () => {
    for (const method of API_METHODS) {
      expect(apiSchemas[method].request.safeParse(VALID_REQUESTS[method]).success, method).toBe(true);
    }
  });
});

describeContractFuzz('Host.call', {
  transport: () => async (method, request) => ({ received: request, result: await fixture.host.call(method, request) }),
  wire: (request) => request,
  dataDir: () => fixture.dataDir,
  numRuns: 50,
});

/** Requests the contract's schemas accept but the Host must refuse itself: unknown ids, tools, servers, policies. */
describe('Host.call, past the schema', () => {
  const id = fc.string({ minLength: 1, maxLength: 64 }).filter((s) => !['task-1', 'message-1'].includes(s));
  const serverName = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,39}$/).filter((s) => s !== 'files');
  const tool = fc.string({ minLength: 1, maxLength: 200 });
  const unknownRef: fc.Arbitrary<[ApiMethod, unknown]> = fc.oneof(
    id.map((taskId) => ['tasks.get', { taskId }] as [ApiMethod, unknown]),
    fc
      .tuple(id, fc.constantFrom('allow-once', 'allow-task', 'always', 'deny'))
      .map(([callId, answer]) => ['toolcalls.answer', { id: callId, answer }] as [ApiMethod, unknown]),
    id.map((callId) => ['toolcalls.undo', { id: callId }] as [ApiMethod, unknown]),
    fc
      .tuple(id, fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }))
      .map(([callId, args]) => ['approvals.approve', { ids: [callId], args }] as [ApiMethod, unknown]),
    fc.array(id, { minLength: 1, maxLength: 5 }).map((ids) => ['approvals.deny', { ids }] as [ApiMethod, unknown]),
    fc
      .tuple(
        fc.constantFrom(
          'models.pause',
          'models.resume',
          'models.cancel',
          'models.verify',
          'models.remove',
          'models.activate',
        ),
        id,
      )
      .map(([method, modelId]) => [method, { id: modelId }] as [ApiMethod, unknown]),
    fc
      .tuple(fc.constantFrom('mcp.remove', 'mcp.restart'), serverName)
      .map(([method, name]) => [method, { name }] as [ApiMethod, unknown]),
    fc
      .tuple(serverName, fc.boolean())
      .map(([name, enabled]) => ['mcp.setEnabled', { name, enabled }] as [ApiMethod, unknown]),
    fc.tuple(serverName, tool).map(([server, t]) => ['mcp.review', { server, tool: t }] as [ApiMethod, unknown]),
    fc
      .tuple(serverName, tool, fc.constantFrom(null, 'read', 'write', 'irreversible'))
      .map(([server, t, risk]) => ['mcp.setRisk', { server, tool: t, risk }] as [ApiMethod, unknown]),
    fc
      .tuple(tool, fc.constantFrom('auto', 'ask', 'queue', 'off'))
      .filter(([t]) => fixture.host.registry.get(t) === undefined)
      .map(([t, mode]) => ['policy.setMode', { tool: t, mode }] as [ApiMethod, unknown]),
    fc
      .anything({ maxDepth: 3 })
      .filter((policy) => !PolicySchema.safeParse(policy).success)
      .map((policy) => ['policy.set', { policy }] as [ApiMethod, unknown]),
  );

  it('refuses unknown ids, tools, servers and invalid policies with a specific error, and writes nothing', async () => {
    const before = snapshotData(fixture.dataDir);
    await fc.assert(
      fc.asyncProperty(unknownRef, async ([method, request]) => {
        const result = await bounded(method, fixture.host.call(method, request));
        expect(result).toMatchObject({ ok: false });
        const error = (result as { ok: false; error: { code: string; message: string } }).error;
        expect(error.code, error.message).not.toBe('INTERNAL');
        expect(error.message.length).toBeLessThanOrEqual(MAX_ERROR_MESSAGE);
      }),
      { seed: FUZZ_SEED, numRuns: 200 },
    );
    expect(snapshotData(fixture.dataDir)).toEqual(before);
  });
});
