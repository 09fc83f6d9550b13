// Ceiling 1: a raw node:http server answering every request with the same pre-serialized bytes.
// Usage: node bench/ceilings/raw-http.mjs <port> <body-file>
import { createServer } from 'node:http';
import { readFileSync } from 'node:fs';

const [port, bodyFile] = process.argv.slice(2);
const body = readFileSync(bodyFile);
const headers = { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': String(body.length) };

createServer((req, res) => {
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1');
