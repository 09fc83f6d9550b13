#!/usr/bin/env node
// Runs the TypeScript CLI directly (through tsx), so there is no build step.
import { register } from 'tsx/esm/api';

register();
// `serve` loads only its own command: a large dataset's first answer must not wait for Pact.
const { main } = await import(process.argv[2] === 'serve' ? '../cli/serve-main.ts' : '../cli/main.ts');
await main(process.argv);
