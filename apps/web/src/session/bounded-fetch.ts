/*
 * How long any call waits for its answer: the app's (session/client.ts) and the page's first
 * script's (session/early.ts), which imports nothing heavier than this.
 */

/** How long a call may take before it fails with "Não foi possível falar com o servidor". */
export const CALL_TIMEOUT_MS = 15_000;

/** `fetch` that gives up after `ms` (or when the caller aborts). */
export function boundedFetch(base?: typeof fetch, ms = CALL_TIMEOUT_MS): typeof fetch {
  return (input, init) => {
    const timeout = AbortSignal.timeout(ms);
    const signal = init?.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return (base ?? fetch)(input, { ...init, signal });
  };
}
