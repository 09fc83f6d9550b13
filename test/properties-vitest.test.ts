/**
 * The vitest integration a team uses in its own suite: describeListingProperties defines one test
 * per property and endpoint, run against a server started in beforeAll (here the bug-free
 * reference server). A failure would fail the test with the check's report (shown by hand in the
 * README section); here every test must pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeListingProperties } from '../properties/vitest.ts';
import { startReferenceServer, type ReferenceServer } from './support/reference-server.ts';

let server: ReferenceServer | undefined;
beforeAll(async () => {
  server = await startReferenceServer();
});
afterAll(async () => {
  await server?.close();
});

describeListingProperties('reference server', {
  baseUrl: () => server!.url,
  seed: 9,
  runs: 5,
  strict: true,
  properties: ['envelope-shape', 'next-and-prev-page', 'bad-parameters-400'],
});

describe('the server under test', () => {
  it('was started before the properties ran', () => {
    expect(server?.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});
