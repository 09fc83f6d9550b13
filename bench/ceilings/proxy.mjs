// Ceiling 3: the proxy library alone, with the very options and agent `serve --backend` uses
// (mock-server/backend/proxy-options.ts, as built into dist/), in front of the bench's origin. What a
// passed-through request costs through the mock is compared with what it costs here.
// Usage: node bench/ceilings/proxy.mjs <port> <origin URL>
import { createServer } from 'node:http';
import { createProxyMiddleware } from 'http-proxy-middleware';
import { backendAgent, proxyOptions } from '../../dist/mock-server/backend/proxy-options.js';

const [port, origin] = process.argv.slice(2);
const target = new URL(origin);

createServer(createProxyMiddleware(proxyOptions(target, backendAgent(target)))).listen(Number(port), '127.0.0.1');
