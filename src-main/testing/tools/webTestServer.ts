import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real HTTP server on 127.0.0.1 for the web tools' tests: pages, redirects, errors, a huge page, a hanging
 * request and a SearXNG-like JSON search endpoint. It counts every request by path, so a test can prove that a
 * request was never made (a blocked redirect, offline mode, a script in a page).
 */
export interface WebTestServer {
  readonly origin: string;
  /** Requests seen, by path (query left out), in order. */
  readonly hits: string[];
  /** The queries the search endpoint received. */
  readonly searches: URLSearchParams[];
  /** Bytes the huge page actually wrote before the client stopped reading. */
  hugeBytesSent(): number;
  close(): Promise<void>;
}

export const ARTICLE_HTML = `<!doctype html>
<html><head><title>Otters of the Tagus | River News</title>
<script>fetch('/beacon'); document.title = 'SCRIPT RAN';</script>
<style>.ad { color: red }</style></head>
<body>
<nav><a href="/">Home</a> <a href="/sports">Sports menu item</a> <a href="/weather">Weather menu item</a></nav>
<div class="ad sponsored">BUY CHEAP WATCHES NOW advertisement</div>
<main><article>
<h1>Otters return to the Tagus</h1>
<p class="byline">By Ana Lima</p>
<p>After decades away, Eurasian otters have been seen again along the lower Tagus river near Lisbon. Biologists from
the university counted at least eleven animals during a winter survey, the highest number recorded since the 1970s.</p>
<p>The return follows years of work to clean the river. Sewage treatment plants upstream were modernised, and fishing
nets that trapped otters were replaced with safer designs. Local volunteers also planted willows along the banks.</p>
<p>Researchers say the otters are a sign of a healthier river. They plan to fit cameras at three sites next spring to
learn where the animals breed, and they ask walkers to report sightings through the city's nature website.</p>
<ul><li>Eleven otters counted</li><li>Three camera sites planned</li></ul>
<script>document.body.innerHTML = 'SCRIPT REPLACED THE PAGE'; fetch('/beacon?inline');</script>
<img src="/pixel.gif" onerror="fetch('/beacon?img')">
</article></main>
<aside class="sidebar">Related: Top ten sidebar stories you will love</aside>
<footer>Copyright River News footer text</footer>
</body></html>`;

export const SEARCH_RESULTS = {
  query: '',
  number_of_results: 3,
  results: [
    {
      url: 'https://otters.example/tagus',
      title: 'Otters return to the Tagus',
      content: 'Eleven otters counted near Lisbon.',
    },
    { url: 'https://otters.example/tagus', title: 'Duplicate of the first', content: 'Same URL again.' },
    { url: 'javascript:alert(1)', title: 'Not a web address', content: 'dropped' },
    {
      url: 'https://wiki.example/Otter',
      title: 'Eurasian otter',
      content: '  A semiaquatic\n mammal   native to Eurasia. ',
    },
    { url: 'https://news.example/rivers', title: '', content: 'Rivers are cleaner.' },
  ],
  answers: [],
  suggestions: [],
};

const HUGE_BYTES = 6 * 1024 * 1024;

export async function startWebTestServer(options: { onRequest?: (path: string) => void } = {}): Promise<WebTestServer> {
  const hits: string[] = [];
  const searches: URLSearchParams[] = [];
  let hugeSent = 0;
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    hits.push(url.pathname);
    options.onRequest?.(url.pathname);
    const send = (status: number, type: string, body: string | Buffer, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': type, ...headers });
      res.end(body);
    };
    const redirect = (status: number, location: string) => {
      res.writeHead(status, { location });
      res.end();
    };
    switch (url.pathname) {
      case '/article':
        return send(200, 'text/html; charset=utf-8', ARTICLE_HTML);
      case '/short':
        return send(
          200,
          'text/html',
          '<html><head><title>Short</title></head><body><nav>Menu</nav><p>Just one line.</p></body></html>',
        );
      case '/latin1':
        return send(
          200,
          'text/html; charset=iso-8859-1',
          Buffer.from(
            '<html><head><title>Caf\xe9</title></head><body><p>Cr\xe8me br\xfbl\xe9e.</p></body></html>',
            'latin1',
          ),
        );
      case '/notes.txt':
        return send(200, 'text/plain; charset=utf-8', 'line one\nline two\n');
      case '/data.json':
        return send(200, 'application/json', '{"river":"Tagus","otters":11}');
      case '/image.png':
        return send(200, 'image/png', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]));
      case '/missing':
        return send(404, 'text/html', '<h1>Not here</h1>');
      case '/broken':
        return send(500, 'text/plain', 'oops');
      case '/r1':
        return redirect(301, '/r2');
      case '/r2':
        return redirect(302, `${origin}/r3`);
      case '/r3':
        return redirect(307, 'article');
      case '/to-blocked':
        // localhost is the same server: only the egress refusal keeps the request from arriving.
        return redirect(302, `http://localhost:${port}/blocked-target`);
      case '/to-ftp':
        return redirect(302, 'ftp://files.example/secret');
      case '/loop':
        return redirect(302, `/loop?n=${Number(url.searchParams.get('n') ?? 0) + 1}`);
      case '/no-location':
        res.writeHead(302);
        return res.end();
      case '/huge': {
        res.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = Buffer.from('all work and no play makes a dull page\n'.repeat(1700));
        const write = () => {
          while (hugeSent < HUGE_BYTES) {
            hugeSent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', write);
          }
          res.end();
        };
        res.on('error', () => undefined);
        return write();
      }
      case '/hang':
        hanging.add(res);
        res.on('close', () => hanging.delete(res));
        return;
      case '/search': {
        searches.push(url.searchParams);
        if (url.searchParams.get('format') !== 'json') return send(403, 'text/html', 'Forbidden');
        return send(200, 'application/json', JSON.stringify({ ...SEARCH_RESULTS, query: url.searchParams.get('q') }));
      }
      case '/search-html':
        return send(200, 'text/html', '<html><body>Search page</body></html>');
      case '/search-forbidden':
        return send(403, 'text/html', 'Forbidden');
      default:
        return send(404, 'text/plain', 'no such test page');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    hits,
    searches,
    hugeBytesSent: () => hugeSent,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
