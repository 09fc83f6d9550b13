/** The benchmark's own logic: statistics, the peers' configurations, the report and the chart. */
import { describe, expect, it } from 'vitest';
import { median, percentile, ratio } from '../bench/lib/stats.ts';
import { mockoonEnvironment, openapiDocument, pactFile, wiremockMapping, REVIEWS_PATH } from '../bench/lib/peer-configs.ts';
import { parseWrk, randomCycle, RANDOM_PATHS_PER_SECOND } from '../bench/lib/wrk.ts';
import { atOnceRatios, checkTargets, passthroughTargets, PASSTHROUGH_SECTION, renderPassedThrough, renderResults, renderSvg, spliceSection, startupTargets, type AtOnce, type Measured } from '../bench/lib/report.ts';
import { parseBenchOptions, type BenchOptions } from '../bench/lib/options.ts';
import { orderPagePaths, randomPagePaths } from '../bench/lib/random-pages.ts';
import { AGAINST_COMMIT_SECTION, besideEachOther, commitOfTarget, renderAgainstCommit } from '../bench/lib/older-build.ts';

describe('statistics', () => {
  it('percentile is nearest-rank on ascending data; median averages the middle pair', () => {
    const sorted = Float64Array.from({ length: 100 }, (_, i) => i + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile(sorted, 1)).toBe(100);
    expect(percentile(new Float64Array(0), 0.5)).toBeNaN();
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([NaN, 2])).toBe(2);
    expect(ratio(1, 0)).toBeNaN();
    expect(ratio(3, 4)).toBe(0.75);
  });
});

describe('peer configurations', () => {
  const page = { reviews: [{ id: 'rev_1', rating: 5 }], count: 1, limit: 10, offset: 0, totalPages: 1, currentPage: 1, nextPage: null, prevPage: null };
  const input = { pageBytes: Buffer.from(JSON.stringify(page)), query: 'limit=10&offset=0', pageSize: 10, reviews: page.reviews };

  it('every static peer answers exactly our page on the reviews path', () => {
    const pact = pactFile(input) as any;
    expect(pact.interactions[0].request).toEqual({ method: 'GET', path: REVIEWS_PATH, query: { limit: ['10'], offset: ['0'] } });
    expect(pact.interactions[0].response.body).toEqual(page);
    expect((wiremockMapping(input) as any).response.body).toBe(JSON.stringify(page));
    const mockoon = mockoonEnvironment(input) as any;
    expect(mockoon.routes[0].endpoint).toBe(REVIEWS_PATH.slice(1));
    expect(mockoon.routes[0].responses[0].body).toBe(JSON.stringify(page));
    expect(mockoon.routes[0].responses[0].disableTemplating).toBe(true);
  });

  it('the OpenAPI document has the page as example (static) or only a schema of 10 reviews (dynamic)', () => {
    const media = (doc: any) => doc.paths[REVIEWS_PATH].get.responses['200'].content['application/json; charset=utf-8'];
    expect(media(openapiDocument(input, true)).example).toEqual(page);
    const dynamic = media(openapiDocument(input, false));
    expect(dynamic.example).toBeUndefined();
    expect(dynamic.schema.properties.reviews).toMatchObject({ minItems: 10, maxItems: 10 });
    expect(dynamic.schema.properties.nextPage).toMatchObject({ type: 'integer', nullable: true });
  });
});

function measured(id: string, kind: Measured['kind'], group: Measured['group'], rps: number, p50: number, extra: Partial<Measured> = {}): Measured {
  return { id, label: id, kind, group, setup: `setup of ${id}`, requestsPerSec: rps, p50Ms: p50, p99Ms: p50 * 3, rssMiB: 100, cpuUsPerRequest: 1e6 / rps, startMs: 500, startRssMiB: 90, failures: 0, generatorCpuShare: 0.5, ...extra };
}

describe('wrk', () => {
  it("reads wrk's report and the generator's CPU from bash's times", () => {
    const output = [
      'Running 1s test @ http://127.0.0.1:9330',
      '  1 threads and 4 connections',
      '  Latency Distribution',
      '     50%  243.00us',
      '     75%  497.00us',
      '     90%    2.31ms',
      '     99%   12.07ms',
      '  11379 requests in 1.00s, 37.92MB read',
      '  Non-2xx or 3xx responses: 379',
      '  Socket errors: connect 0, read 2, write 0, timeout 1',
      'Requests/sec:  11364.10',
      'Transfer/sec:     37.87MB',
      '0m0.000s 0m0.002s',
      '0m0.049s 0m0.211s',
    ].join('\n');
    const r = parseWrk(output, 1);
    expect(r.p50Ms).toBeCloseTo(0.243, 6);
    expect(r.p99Ms).toBeCloseTo(12.07, 6);
    expect(r).toMatchObject({ ok: 11_000, non2xx: 379, errors: 3 });
    expect(r.requestsPerSec).toBeCloseTo(11364.1 * (11_000 / 11_379), 3);
    expect(r.generatorCpuShare).toBeCloseTo(0.26, 6);
  });
});

describe('report', () => {
  const runs: Measured[] = [
    measured('ours', 'ours', 'main', 9000, 1),
    measured('express', 'ceiling', 'main', 10_000, 1),
    measured('json-server', 'peer', 'main', 500, 10),
    measured('wiremock', 'peer', 'main', 9500, 1),
    measured('deep-1000', 'ours', 'deep', 9000, 1.0, { reviews: 1000 }),
    measured('deep-1000000', 'ours', 'deep', 8000, 1.3, { reviews: 1_000_000, startMs: 2500, rssMiB: 300 }),
    measured('pact-stub', 'peer', 'main', 12_000, 1, { generatorCpuShare: 0.95 }),
    measured('raw-http', 'ceiling', 'main', 20_000, 1),
    measured('ours-nojournal', 'ours', 'main', 9500, 1),
    measured('random-1000000', 'ours', 'deep', 7000, 2, { reviews: 1_000_000, rssMiB: 600 }),
  ];

  it('judges each target on the medians given', () => {
    const checks = checkTargets(runs, [{ label: 'serve big', firstAnswerMs: 2500, allAnswersMs: 4000, rssMiB: 300, maxRssMiB: 1100 }]);
    const met = Object.fromEntries(checks.map((c) => [c.goal, c.met]));
    expect(met['our page at least 0.8 of the bare-Express ceiling (req/s)']).toBe(true);
    expect(met['ahead of json-server (req/s)']).toBe(true);
    expect(met['ahead of wiremock (req/s)']).toBe(false);
    expect(checks.find((c) => c.goal.startsWith('p50 of the last page'))).toMatchObject({ measured: '1.30×', met: false });
    expect(checks.find((c) => c.goal === 'serve big: first answer within 3 s of start')).toMatchObject({ measured: '2.50 s', met: true });
    expect(checks.find((c) => c.goal === 'serve big: resident memory under 1 GiB')).toMatchObject({ measured: '1100 MiB', met: false });
    // the Pact stub server, raw node:http, the journal's cost, uncached pages
    expect(met["CPU per request at most the Pact stub server's"]).toBe(false);
    expect(met["req/s at least the Pact stub server's"]).toBe(false);
    expect(checks.find((c) => c.goal === "CPU per request within 1.5× raw node:http's")).toMatchObject({ measured: '2.22×', met: false });
    expect(checks.find((c) => c.goal.startsWith('defaults cost nothing'))).toMatchObject({ met: true });
    expect(checks.find((c) => c.goal.endsWith("CPU per request at most 1.5× the bare-Express route's"))).toMatchObject({ met: true });
    expect(checks.find((c) => c.goal.endsWith('resident memory under 512 MiB'))).toMatchObject({ measured: '600 MiB', met: false });
  });

  it('prints every run with its ratios to Express, and the SVG draws one bar per server of the main table', () => {
    const options = parseBenchOptions(['--quick']);
    if (options === 'help') throw new Error('unexpected');
    const text = renderResults({
      options,
      generator: 'wrk',
      measured: runs,
      skipped: [{ label: 'Prism', reason: 'not installed' }],
      facts: { cpu: 'cpu', cores: 2, memoryGiB: 8, os: 'os', node: 'v20', java: 'none', versions: { express: '5' } },
      pinned: true,
      pageBytes: 5000,
    });
    expect(text).toContain('| ours | 9,000 | 0.90× | 1.000 | 1.00× | 3.000 | 1.00× | 100 | 1.00× | 111 | 1.11× | 50 %, ceiling 18,000 req/s |');
    expect(text).toContain('| 95 %, ceiling 12,632 req/s (**generator-bound**) |');
    expect(text).toContain('(wrk, one thread, HTTP/1.1 keep-alive');
    expect(text).toContain('| json-server | 500 | 0.05× | 10.000 | 10.00× |');
    expect(text).toContain('Prism: skipped, not installed.');
    expect(text).toContain('**Quick run**');
    const svg = renderSvg(runs);
    expect(svg.startsWith('<svg')).toBe(true);
    expect(svg.match(/<rect x="210"/g)?.length).toBe(7 + 1); // seven bars and the first legend swatch
    expect(svg).toContain('9,000 req/s (0.90×)');
  });

  it('judges start-up: serve within 2× a bare Express app, the root import under 0.3 s', () => {
    const judged = (serveMs: number, importRootMs: number) => startupTargets({ serveMs, expressMs: 360, importRootMs, rounds: 7 }).map((c) => c.met);
    expect(judged(700, 130)).toEqual([true, true]);
    expect(judged(800, 130)).toEqual([false, true]);
    expect(judged(700, 460)).toEqual([true, false]);
  });

  it('options: defaults, quick, and refusals', () => {
    expect(parseBenchOptions([])).toMatchObject({ rounds: 5, durationSec: 6, warmupSec: 2, sizes: [1000, 100000, 1000000], outDir: 'bench' });
    expect(parseBenchOptions(['--quick', '--out', '-'])).toMatchObject({ rounds: 1, durationSec: 3, outDir: undefined });
    expect(() => parseBenchOptions(['--rounds', '-1'])).toThrow();
    expect(() => parseBenchOptions(['--sizes', '5'])).toThrow(/at least 10/);
    expect(() => parseBenchOptions(['--bogus'])).toThrow();
    expect((parseBenchOptions([]) as BenchOptions).cpuProfDir).toBeUndefined();
    expect((parseBenchOptions(['--cpu-prof', 'bench/.work/profiles']) as BenchOptions).cpuProfDir).toBe('bench/.work/profiles');
  });
});

describe('passed through (issue 28, item 7)', () => {
  const runs = (passthroughUs: number, overlaidUs: number): Measured[] => [
    measured('proxy-lib', 'ceiling', 'passthrough', 10_000, 1, { cpuUsPerRequest: 100 }),
    measured('passthrough', 'ours', 'passthrough', 8000, 1, { cpuUsPerRequest: passthroughUs, p99Ms: 2.5 }),
    measured('ours', 'ours', 'main', 9000, 1, { cpuUsPerRequest: 40 }),
    measured('ours-backend', 'ours', 'main', 9000, 1, { cpuUsPerRequest: overlaidUs }),
  ];

  it('judges the passed-through request against the proxy library alone (≤ 1.3×) and our page with --backend against without (≤ 1.1×)', () => {
    expect(passthroughTargets(runs(130, 44)).map((c) => c.met)).toEqual([true, true]);
    expect(passthroughTargets(runs(131, 45)).map((c) => c.met)).toEqual([false, false]);
    expect(passthroughTargets(runs(125, 40))[0]).toMatchObject({ measured: '1.25× (125 vs 100 µs)' });
    // the full run's targets hold them too; without the pair, nothing is judged
    expect(checkTargets(runs(131, 40)).filter((c) => c.goal.includes('proxy library'))).toHaveLength(1);
    expect(passthroughTargets(runs(131, 40).filter((m) => m.id !== 'proxy-lib' && m.id !== 'ours'))).toEqual([]);
  });

  it('the section has the table, the ratio line (met or not met) and the round-by-round ratios', () => {
    const met = renderPassedThrough(runs(125, 40), [1.2, 1.3, 1.25]).join('\n');
    expect(met).toContain('| passthrough | 125 | 1.25× | 8,000 | 2.500 |');
    expect(met).toContain('\npassthrough / proxy-lib = 1.25 (target ≤ 1.30): met\n');
    expect(met).toContain('Round by round (each pair measured right beside each other): 1.20, 1.30, 1.25.');
    expect(met).toContain('with `--backend` set: 40 µs CPU/request against 40 without (1.00×)');
    expect(renderPassedThrough(runs(140, 40)).join('\n')).toContain('passthrough / proxy-lib = 1.40 (target ≤ 1.30): not met');
    expect(renderPassedThrough(runs(125, 40).filter((m) => m.id !== 'proxy-lib'))).toEqual([]);
    expect(renderPassedThrough(runs(125, 40), [], 'Measured by hand.')).toContain('Measured by hand.');
  });

  it('a run of --only passthrough replaces its section of RESULTS.md and leaves the rest as it was', () => {
    const before = ['# Benchmark results', '', '## Machine', 'cpu', '', '## Targets of this run', 'targets', ''].join('\n');
    const once = spliceSection(before, PASSTHROUGH_SECTION, [PASSTHROUGH_SECTION, '', 'first', '']);
    expect(once).toBe(['# Benchmark results', '', '## Machine', 'cpu', '', PASSTHROUGH_SECTION, '', 'first', '', '## Targets of this run', 'targets', ''].join('\n'));
    const twice = spliceSection(once, PASSTHROUGH_SECTION, [PASSTHROUGH_SECTION, '', 'second', '']);
    expect(twice).toBe(once.replace('first', 'second'));
    expect(spliceSection('', PASSTHROUGH_SECTION, [PASSTHROUGH_SECTION])).toBe(['', '', PASSTHROUGH_SECTION].join('\n'));
  });

  it('--only passthrough is an option the bench takes; whether --rounds was given is known (it runs 9 rounds unless it was)', () => {
    expect(parseBenchOptions(['--only', 'passthrough', '--no-peers'])).toMatchObject({ only: ['passthrough'], peers: false, rounds: 5, roundsGiven: false });
    expect(parseBenchOptions(['--only', 'passthrough', '--rounds', '3'])).toMatchObject({ rounds: 3, roundsGiven: true });
  });

  // Issue 36, item 5: each pair also driven at the same time; the median of those rounds is what is judged.
  const atOnce = (passthrough: number[], page: number[]): AtOnce[] => [
    { id: 'passthrough', reference: 'proxy-lib', rounds: passthrough.map((r) => ({ cpuUs: 100 * r, rps: 4000, refCpuUs: 100, refRps: 5000 })) },
    { id: 'passthrough-nojournal', reference: 'proxy-lib', rounds: passthrough.map(() => ({ cpuUs: 105, rps: 4500, refCpuUs: 100, refRps: 5000 })) },
    { id: 'ours-backend', reference: 'ours', rounds: page.map((r) => ({ cpuUs: 40 * r, rps: 20_000, refCpuUs: 40, refRps: 20_000 })) },
  ];

  it('with rounds driven at once, judges the median of their ratios, not the ratio of the medians one after the other', () => {
    // one after the other: 1.40× and 1.25×, not met; at once: medians 1.20× and 1.05×, met
    const checks = passthroughTargets(runs(140, 50), atOnce([1.1, 1.2, 1.6], [1.0, 1.05, 1.3]));
    expect(checks.map((c) => c.met)).toEqual([true, true]);
    expect(checks[0]).toMatchObject({ measured: '1.20× (1.10, 1.20, 1.60; 120 vs 100 µs)' });
    expect(checks[0]?.goal).toContain('median of the rounds, both driven at once');
    expect(passthroughTargets(runs(100, 40), atOnce([1.3, 1.31, 1.4], [1.11, 1.2, 1.0])).map((c) => c.met)).toEqual([false, false]);
    expect(atOnceRatios(atOnce([1.5, 1.1, 1.2, 1.3], [])[0] as AtOnce).median).toBeCloseTo(1.25);
    // the full run's targets use them too
    expect(checkTargets(runs(140, 50), [], undefined, atOnce([1.1, 1.2, 1.6], [1.0, 1.05, 1.3])).filter((c) => c.goal.includes('driven at once')).map((c) => c.met)).toEqual([true, true]);
  });

  it('the section shows the pairs driven at once: CPU and req/s of both sides, the ratio round by round and its median, against its target', () => {
    const text = renderPassedThrough(runs(140, 50), [1.4, 1.3], undefined, { atOnce: atOnce([1.1, 1.2, 1.6], [1.0, 1.05, 1.3]), pageRounds: [1.2, 1.3] }).join('\n');
    expect(text).toContain('passthrough / proxy-lib = 1.20 (median of 3 rounds driven at once; target ≤ 1.30): met');
    expect(text).toContain('### Each pair driven at the same time');
    expect(text).toContain('| a passed-through request / the proxy library alone | 120 | 100 | 4,000 | 5,000 | **1.20×** | 1.10, 1.20, 1.60 | ≤ 1.30: met |');
    expect(text).toContain('| the same with `--journal-size 0` / the proxy library alone | 105 | 100 | 4,500 | 5,000 | **1.05×** | 1.05, 1.05, 1.05 |  |');
    expect(text).toContain('| our page with `--backend` set / without | 42 | 40 | 20,000 | 20,000 | **1.05×** | 1.00, 1.05, 1.30 | ≤ 1.10: met |');
    expect(text).toContain('Round by round: 1.20, 1.30 (median 1.25).');
    // without such rounds, no such table
    expect(renderPassedThrough(runs(140, 50)).join('\n')).not.toContain('driven at the same time');
  });
});

describe('the random uncached page', () => {
  it('every generator sends the same pages in the same order (the bench, the older commit beside it, bench/gc-counts.ts)', () => {
    const first = randomPagePaths(1_000_000, 10);
    const second = randomPagePaths(1_000_000, 10);
    expect([first(), first()]).toEqual([
      '/store/products/reviews?limit=10&offset=336332&order=-updated_at',
      '/store/products/reviews?limit=10&offset=407222&order=-updated_at',
    ]);
    expect(second()).toBe('/store/products/reviews?limit=10&offset=336332&order=-updated_at');
  });

  it('is measured only once every order it draws is built: one page of each is asked first', () => {
    const ready = orderPagePaths(1_000_000, 10);
    const orderOf = (path: string) => new URLSearchParams(path.split('?')[1]).get('order');
    const next = randomPagePaths(1_000_000, 10);
    const drawn = new Set(Array.from({ length: 2_000 }, () => orderOf(next())));
    expect(new Set(ready.map(orderOf))).toEqual(drawn);
    expect(ready).toHaveLength(drawn.size);
    expect(ready[0]).toBe('/store/products/reviews?limit=10&offset=500000&order=created_at');
  });
});

describe('older commits beside this build (bisecting the random page)', () => {
  it('repeats no page within a run but by chance, up to 25,000 answers a second (at 8,000 a second a cycle of 20,000 repeated pages in 6 s)', () => {
    expect(randomCycle(6)).toBe(6 * RANDOM_PATHS_PER_SECOND);
    expect(randomCycle(6)).toBeGreaterThan(6 * 8_000 * 3);
    expect(randomCycle(0.5)).toBe(20_000);
    const next = randomPagePaths(1_000_000, 10);
    const paths = Array.from({ length: randomCycle(2) }, next);
    // Pages drawn at random from six million (offsets times orders) meet only by chance: about n²/2 of six million.
    const byChance = (paths.length * paths.length) / (2 * 6_000_000);
    expect(paths.length - new Set(paths).size).toBeLessThan(2 * byChance);
    expect(2 * byChance).toBeLessThan(paths.length / 100);
  });

  it('a run of the random targets alone replaces their section of RESULTS.md, saying how it was measured, and leaves the rest as it was', () => {
    const pairs = [{ label: '1,000,000 reviews, a random page per request', rev: '26a2658', ours: [120, 118, 130], older: [190, 180, 200] }];
    const section = renderAgainstCommit(pairs, 'Measured on its own.');
    expect(section[0]).toBe(AGAINST_COMMIT_SECTION);
    expect(section).toContain('Measured on its own.');
    expect(section.join('\n')).toContain('| 1,000,000 reviews, a random page per request | 26a2658 | 190 | **0.65×** | 0.63, 0.66, 0.65 |');
    const full = ['# Benchmark results', '', '## Machine', 'cpu', '', AGAINST_COMMIT_SECTION, '', 'old numbers', ''].join('\n');
    const spliced = spliceSection(full, AGAINST_COMMIT_SECTION, section);
    expect(spliced.startsWith(['# Benchmark results', '', '## Machine', 'cpu', ''].join('\n'))).toBe(true);
    expect(spliced).not.toContain('old numbers');
    expect(spliced).toContain('**0.65×**');
  });

  it('names the commit of a random-<size>@<rev> target, and nothing else', () => {
    expect(commitOfTarget('random-1000000@26a2658', 'random-1000000')).toBe('26a2658');
    expect(commitOfTarget('random-1000000@v1.2.0', 'random-1000000')).toBe('v1.2.0');
    expect(commitOfTarget('random-1000@26a2658', 'random-1000000')).toBeUndefined();
    expect(commitOfTarget('random-1000000', 'random-1000000')).toBeUndefined();
    for (const bad of ['random-1000000@', 'random-1000000@../x', 'random-1000000@a/b', 'random-1000000@-x', 'random-1000000@a b']) expect(commitOfTarget(bad, 'random-1000000')).toBeUndefined();
  });

  it('puts the random targets side by side, their order turning by one each round, the others where they were', () => {
    const order = ['a', 'r', 'x', 'o1', 'o2'].map((id) => ({ id }));
    const ids = (round: number) => besideEachOther(order, ['r', 'o1', 'o2'], round).map((t) => t.id);
    expect(ids(0)).toEqual(['a', 'r', 'o1', 'o2', 'x']);
    expect(ids(1)).toEqual(['a', 'o1', 'o2', 'r', 'x']);
    expect(ids(2)).toEqual(['a', 'o2', 'r', 'o1', 'x']);
    expect(ids(3)).toEqual(ids(0));
    // Two: one side in even rounds, the other in odd ones; a missing partner changes nothing.
    expect(besideEachOther(order, ['r', 'o2'], 1).map((t) => t.id)).toEqual(['a', 'o2', 'r', 'x', 'o1']);
    expect(besideEachOther(order, ['r', 'missing'], 1)).toBe(order);
  });
});
