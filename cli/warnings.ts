/**
 * Warnings of the kit's dependencies that a user can do nothing about. Pact's verifier (`verify`)
 * and the proxy library behind `serve --backend` and `proxy` (http-proxy, through
 * http-proxy-middleware 3) call `util._extend`, which Node 22 and later report as deprecated
 * (DEP0060) on every run. That one code is dropped; every other warning goes through.
 */
export function hideDependencyDeprecation(hidden = 'DEP0060'): void {
  const emitWarning = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((...args: unknown[]) => {
    const [, typeOrOptions, code] = args;
    const warningCode = typeof typeOrOptions === 'object' && typeOrOptions !== null ? (typeOrOptions as { code?: unknown }).code : code;
    if (warningCode !== hidden) emitWarning(...args);
  }) as typeof process.emitWarning;
}
