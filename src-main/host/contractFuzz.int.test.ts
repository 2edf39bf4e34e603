import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_METHODS, apiSchemas } from '../../src-shared/contract/index.js';
import { VALID_REQUESTS, describeContractFuzz, seededHost } from '../testing/contractFuzz.js';

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
