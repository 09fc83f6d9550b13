/** The kit's Pact templates live in lib/pact-templates.ts (pure: the mock's own pacts are built from them too). */
export * from '../lib/pact-templates.ts';
