// autocannon ships no types; soak/run.ts declares the little of its result it reads.
declare module 'autocannon';
