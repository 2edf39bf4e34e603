import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_METHODS, MAX_REQUEST_BYTES, MAX_SELECTION_BYTES } from '../../src-shared/contract/index.js';
import {
  FUZZ_SEED,
  bounded,
  describeContractFuzz,
  expectRefused,
  seededHost,
  snapshotData,
} from '../testing/contractFuzz.js';
import { startBrowserServer, TOKEN_META_PLACEHOLDER, type BrowserServer } from './browserServer.js';

/** Browser mode's HTTP endpoint in front of a real Host: what a page (or any local process) can send it. */

interface Reply {
  status: number;
  body: string;
}

function post(
  path: string,
  body: string | Buffer | undefined,
  headers: Record<string, string> = {},
  chunked = false,
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: server.port,
        path,
        method: 'POST',
        headers: {
          host: `127.0.0.1:${server.port}`,
          'content-type': 'application/json',
          'x-homebody-token': server.token,
          ...(chunked ? { 'transfer-encoding': 'chunked' } : {}),
          ...headers,
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const renderer = mkdtempSync(join(tmpdir(), 'hb-fuzz-renderer-'));
writeFileSync(join(renderer, 'index.html'), `<html><head>${TOKEN_META_PLACEHOLDER}</head><body></body></html>`);

let fixture: Awaited<ReturnType<typeof seededHost>>;
let server: BrowserServer;
beforeAll(async () => {
  fixture = await seededHost();
  server = await startBrowserServer({ host: fixture.host, rendererDir: renderer, port: 0 });
});
afterAll(async () => {
  await server.close();
  await fixture.dispose();
  rmSync(renderer, { recursive: true, force: true });
});

/** What the Host receives is what survives JSON: an empty body is `{}`, NaN becomes null, -0 becomes 0. */
function overJson(request: unknown): unknown {
  const body = JSON.stringify(request);
  return body === undefined ? {} : JSON.parse(body);
}

describeContractFuzz('browser mode HTTP API', {
  transport: () => async (method, request) => {
    const reply = await post(`/api/${encodeURIComponent(method)}`, JSON.stringify(request));
    expect(reply.status).toBe(200);
    return { received: overJson(request), result: JSON.parse(reply.body) };
  },
  wire: overJson,
  dataDir: () => fixture.dataDir,
  numRuns: 25,
});

describe('browser mode HTTP API, below the contract', () => {
  const method = fc.constantFrom(...API_METHODS);
  const notJson: fc.Arbitrary<string | Buffer> = fc.oneof(
    fc.constantFrom<string | Buffer>(
      '{',
      '{"path": "a"',
      "{'path': 'a'}",
      '{"path": "a",}',
      'NaN',
      'undefined',
      '{"a": Infinity}',
      '\uFEFF{}',
      '<xml/>',
      'path=a&taskId=b',
      Buffer.from([0xff, 0xfe, 0x00, 0x7b]),
      Buffer.from([0x7b, 0x22, 0xc3, 0x28, 0x22, 0x3a, 0x31, 0x7d]),
    ),
    fc.string({ minLength: 1, maxLength: 60 }).filter((text) => !parses(text)),
    fc.uint8Array({ minLength: 1, maxLength: 60 }).map((bytes) => Buffer.from(bytes)),
  );

  function parses(text: string): boolean {
    try {
      JSON.parse(text);
      return true;
    } catch {
      return false;
    }
  }

  it('answers a body that is not JSON with 400 and INVALID_REQUEST, and writes nothing', async () => {
    const before = snapshotData(fixture.dataDir);
    await fc.assert(
      fc.asyncProperty(method, notJson, async (m, body) => {
        const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
        fc.pre(!parses(text));
        const reply = await bounded(m, post(`/api/${m}`, body));
        expect(reply.status).toBe(400);
        expect(JSON.parse(reply.body)).toEqual({
          ok: false,
          error: { code: 'INVALID_REQUEST', message: 'The request is not valid JSON.' },
        });
      }),
      { seed: FUZZ_SEED, numRuns: 150 },
    );
    expect(snapshotData(fixture.dataDir)).toEqual(before);
  });

  it('refuses every content type but JSON with 415, even for a valid request', async () => {
    const before = snapshotData(fixture.dataDir);
    const contentType = fc.oneof(
      fc.constantFrom(
        'text/plain',
        'text/plain; charset=utf-8',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
        'application/jsonp',
        'application/json-seq',
        'application/jsonx',
        'text/json',
        'json',
        '',
      ),
      fc
        .string({ maxLength: 30 })
        .filter((t) => !/^application\/json\s*(;|$)/i.test(t.trim()) && /^[\x20-\x7e]*$/.test(t)),
    );
    await fc.assert(
      fc.asyncProperty(fc.constantFrom('history.setRetention', 'app.info'), contentType, async (m, type) => {
        // A valid request that would write (the snapshot shows it) if the content type were let through.
        const body = m === 'history.setRetention' ? '{"days":7}' : '{}';
        const reply = await bounded(m, post(`/api/${m}`, body, { 'content-type': type }));
        expect(reply.status).toBe(415);
        expect(JSON.parse(reply.body)).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
      }),
      { seed: FUZZ_SEED, numRuns: 60 },
    );
    const noType = await post('/api/history.setRetention', '{"days":7}', { 'content-type': '' });
    expect(noType.status).toBe(415);
    expect(snapshotData(fixture.dataDir)).toEqual(before);
  });

  it('refuses a body over the limit with 413, sent whole or chunked, and writes nothing', async () => {
    const before = snapshotData(fixture.dataDir);
    const over = (bytes: number) => JSON.stringify({ text: 'x'.repeat(bytes) });
    for (const chunked of [false, true]) {
      const chat = await post('/api/chat.send', over(MAX_REQUEST_BYTES), {}, chunked);
      expect(chat.status).toBe(413);
      expect(JSON.parse(chat.body)).toEqual({
        ok: false,
        error: { code: 'INVALID_REQUEST', message: 'The request is too large.' },
      });
      expect((await post('/api/history.delete', over(MAX_SELECTION_BYTES), {}, chunked)).status).toBe(413);
      expect((await post('/api/no.such.method', over(MAX_REQUEST_BYTES), {}, chunked)).status).toBe(413);
    }
    expect(snapshotData(fixture.dataDir)).toEqual(before);
  });

  it('survives JSON nested 50,000 deep, as a whole request or inside a field the schema leaves open', async () => {
    const before = snapshotData(fixture.dataDir);
    const depth = 50_000;
    const deepArray = '['.repeat(depth) + ']'.repeat(depth);
    const deepObject = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
    const cases: Array<[string, string]> = [
      ['app.info', deepArray],
      ['history.deleteAll', deepObject],
      ['privacy.deleteAllData', deepArray],
      // Both pass the contract's schema (an unknown value, a record) and reach the Host's own checks.
      ['policy.set', `{"policy":${deepObject}}`],
      ['approvals.approve', `{"ids":["call-1"],"args":${deepObject}}`],
    ];
    for (const [m, body] of cases) {
      const reply = await bounded(m, post(`/api/${m}`, body));
      expect(reply.status, m).toBe(200);
      const result = JSON.parse(reply.body) as { ok: boolean; error: { code: string; message: string } };
      expect(result, m).toMatchObject({ ok: false, error: { code: 'INVALID_REQUEST' } });
      expect(result.error.message.length).toBeLessThan(1000);
    }
    expect(snapshotData(fixture.dataDir)).toEqual(before);
  });

  it('keeps a duplicated key from smuggling a second value past the schema', async () => {
    // JSON.parse keeps the last of two equal keys; the schema checks what the Host will use, not the first.
    const reply = await post('/api/history.deleteAll', '{"confirm":"delete all history","confirm":"no"}');
    expectRefused('history.deleteAll', { confirm: 'no' }, JSON.parse(reply.body));
    expect(fixture.host.store.tasks.get('task-1')).toBeDefined();
  });
});
