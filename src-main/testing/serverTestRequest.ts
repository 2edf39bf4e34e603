import { request as httpRequest } from 'node:http';

/** Tests only: one HTTP answer from browser mode's server. */
export interface Reply {
  status: number;
  body: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface RequestInit {
  method?: string;
  headers?: Record<string, string | string[]>;
  body?: string;
  /** The address connected to; 127.0.0.1 unless a test reaches the server another way. */
  address?: string;
}

/**
 * Tests only: sends one request to the server on `port`, with the Host header a real page would send unless `init`
 * overrides it. Each request gets its own connection: a refusal answers before reading the body and closes it.
 */
export function requestServer(port: number, path: string, init: RequestInit = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: init.address ?? '127.0.0.1',
        port,
        path,
        agent: false,
        method: init.method ?? 'GET',
        headers: { host: `127.0.0.1:${port}`, ...init.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(init.body);
  });
}
