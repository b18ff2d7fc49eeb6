/** Where the service is and how a call proves who makes it: shared by the tRPC and REST clients. */
export interface ConnectionOptions {
  /** The service's base URL, e.g. `https://campus.example` (tRPC answers under `/trpc`). */
  url: string | URL;
  /** An access token sent as `Authorization: Bearer …` with every call. */
  token?: string;
  /** Asked before every call (and every stream (re)connection), e.g. to send a refreshed token. */
  getToken?: () => string | null | undefined | Promise<string | null | undefined>;
  /** The `fetch` to use (a test double, an agent, a timeout); the global one otherwise. */
  fetch?: typeof fetch;
}

/** The `Authorization` header of the next call, if there is a token. */
export async function authorizationHeader(
  options: ConnectionOptions,
): Promise<Record<string, string>> {
  const token = options.getToken ? await options.getToken() : options.token;
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The base URL without a trailing slash, so that paths append to it. */
export const baseUrl = (url: string | URL) => String(url).replace(/\/+$/, '');
