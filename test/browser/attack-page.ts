/**
 * A web page that tries to steer a mock through its admin API, in every way a page can send a
 * request: fetch with a JSON body (a preflight first), fetch and sendBeacon without one, no-cors
 * fetch, HTML forms (simple requests, no preflight), and reading `GET /__admin/config`. Before
 * that it reads a listing, as a storefront does. It records what it saw of each attempt in
 * `window.outcomes` and sets `body[data-done]` when every attempt has ended.
 *
 * Served from its own origin (test/browser/admin-cross-origin.browser.test.ts), or from the
 * mock's own origin through a proxy, as after DNS rebinding (`base` is then '').
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the page saw of one attempt: a status (and body) when it could read the answer, else the error or `opaque`. */
export interface Outcome {
  name: string;
  status?: number;
  body?: string;
  error?: string;
  opaque?: boolean;
  sent?: boolean;
}

const script = (base: string) => `
const base = ${JSON.stringify(base)};
const admin = (path) => base + path;
const outcomes = [];
window.outcomes = outcomes;
async function attempt(name, run) {
  try {
    const response = await run();
    if (response === undefined || typeof response === 'boolean') outcomes.push({ name, sent: response });
    else if (response.type === 'opaque') outcomes.push({ name, opaque: true });
    else outcomes.push({ name, status: response.status, body: (await response.text()).slice(0, 20000) });
  } catch (error) {
    outcomes.push({ name, error: String(error) });
  }
}
/** An HTML form posted into a hidden frame: a simple request, no preflight, and the page reads nothing back. */
function postForm(name, path, enctype, fields) {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe');
    frame.name = name;
    frame.style.display = 'none';
    document.body.append(frame);
    const form = document.createElement('form');
    form.method = 'POST';
    form.action = admin(path);
    form.enctype = enctype;
    form.target = name;
    for (const [key, value] of fields) {
      const input = document.createElement('input');
      input.type = 'hidden';
      input.name = key;
      input.value = value;
      form.append(input);
    }
    document.body.append(form);
    const timer = setTimeout(() => { outcomes.push({ name, error: 'no load event' }); resolve(); }, 10000);
    frame.addEventListener('load', () => { clearTimeout(timer); outcomes.push({ name, sent: true }); resolve(); }, { once: true });
    form.submit();
  });
}
(async () => {
  await attempt('read a listing', () => fetch(base + '/store/wishlists?take=3'));
  await attempt('read config', () => fetch(admin('/__admin/config')));
  await attempt('PUT faults as JSON', () => fetch(admin('/__admin/faults'), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ errorRate: 1, errorStatus: 503 }) }));
  await attempt('PUT faults with X-Requested-By', () => fetch(admin('/__admin/faults'), { method: 'PUT', headers: { 'x-requested-by': 'page', 'content-type': 'application/json' }, body: '{"errorRate":1}' }));
  await attempt('POST reset, no body', () => fetch(admin('/__admin/reset'), { method: 'POST' }));
  await attempt('POST dataset, JSON as text/plain', () => fetch(admin('/__admin/dataset'), { method: 'POST', body: '{"seed":99}' }));
  await attempt('POST dataset, no-cors', () => fetch(admin('/__admin/dataset'), { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'application/json' }, body: '{"seed":99}' }));
  await attempt('PUT faults, no-cors', () => fetch(admin('/__admin/faults'), { method: 'PUT', mode: 'no-cors', body: '{"errorRate":1}' }));
  await attempt('DELETE journal', () => fetch(admin('/__admin/journal'), { method: 'DELETE' }));
  await attempt('POST provider state, no-cors', () => fetch(admin('/__admin/provider-states'), { method: 'POST', mode: 'no-cors', body: '{"state":"no wishlists exist"}' }));
  await attempt('beacon reset', () => navigator.sendBeacon(admin('/__admin/reset')));
  await attempt('beacon dataset as JSON', () => navigator.sendBeacon(admin('/__admin/dataset'), new Blob(['{"seed":99}'], { type: 'application/json' })));
  await postForm('form reset', '/__admin/reset', 'application/x-www-form-urlencoded', [['go', '1']]);
  await postForm('form dataset', '/__admin/dataset', 'text/plain', [['{"seed":99,"pad":"', '"}']]);
  await postForm('form provider state', '/__admin/provider-states', 'text/plain', [['{"state":"no wishlists exist","pad":"', '"}']]);
  await postForm('form faults', '/__admin/faults', 'multipart/form-data', [['errorRate', '1']]);
  document.body.dataset.done = 'true';
})();
`;

function html(base: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>a page that wants the admin API</title></head>
<body><h1>Nothing to see here</h1><script type="module">${script(base)}</script></body></html>`;
}

export interface AttackPage {
  /** The page's URL (its origin: `http://<name>:<port>`). */
  url: string;
  origin: string;
  close(): Promise<void>;
}

const sendPage = (res: ServerResponse, base: string) => {
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  res.end(html(base));
};

async function listen(server: Server, name: string): Promise<AttackPage> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://${name}:${(server.address() as AddressInfo).port}`;
  return { url: `${origin}/`, origin, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/** The page on its own origin `http://<name>:<port>` (the browser maps `name` to 127.0.0.1), attacking `mockUrl`. */
export function serveAttackPage(name: string, mockUrl: () => string): Promise<AttackPage> {
  return listen(createServer((_req, res) => sendPage(res, mockUrl())), name);
}

/**
 * DNS rebinding, without a DNS server: `http://<name>:<port>/` is the page, every other path is
 * passed to the mock as it came (its `Host` still `<name>:<port>`), as if `name` had been
 * rebound to 127.0.0.1 after the page loaded. The page's requests are then same-origin: no CORS
 * stands in their way, only the mock's Host check.
 */
export function serveRebindingPage(name: string, mockPort: () => number): Promise<AttackPage> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    if (req.url === '/') return sendPage(res, '');
    const forward = request({ host: '127.0.0.1', port: mockPort(), method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    forward.on('error', () => res.destroy());
    req.pipe(forward);
  });
  return listen(server, name);
}
