// Ceiling 2: a bare Express 5 route (Express defaults, nothing added) answering the same
// pre-serialized bytes. Usage: node bench/ceilings/express.mjs <port> <body-file> <path>
import express from 'express';
import { readFileSync } from 'node:fs';

const [port, bodyFile, path] = process.argv.slice(2);
const body = readFileSync(bodyFile);

const app = express();
app.get(path, (req, res) => {
  res.type('application/json; charset=utf-8').send(body);
});
app.listen(Number(port), '127.0.0.1');
