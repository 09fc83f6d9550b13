#!/usr/bin/env node
// Runs the TypeScript CLI directly (through tsx), so there is no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../cli/main.ts');
await main(process.argv);
