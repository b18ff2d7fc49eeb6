import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';

/**
 * helmet's headers (its defaults), worked out once and then set on every answer in one loop (by the operators' layer):
 * helmet runs a chain of thirteen middlewares per request to set the same static values, which
 * was a visible share of the cheapest answers (the static lists). `helmet.test.ts`-style checks
 * in `security/api8-misconfiguration.test.ts` still see every header.
 */
export function securityHeaders(): (res: ServerResponse) => void {
  const headers: Array<[string, string]> = [];
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers.push([name, String(value)]);
    },
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  let synchronous = false;
  helmet()(
    { headers: {} } as IncomingMessage,
    recorder as unknown as ServerResponse,
    () => (synchronous = true),
  );
  if (!synchronous || headers.length === 0) throw new Error('helmet did not set its headers');
  return function helmetHeaders(res) {
    // helmet also removes X-Powered-By: the app never sets it (`app.disable('x-powered-by')`).
    for (const [name, value] of headers) res.setHeader(name, value);
  };
}
