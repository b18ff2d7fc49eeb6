import createFetchClient, { type Client } from 'openapi-fetch';
import { authorizationHeader, baseUrl, type ConnectionOptions } from './connection.js';
import type { paths } from './generated/rest.js';

export type { components, operations, paths } from './generated/rest.js';
export type { ConnectionOptions } from './connection.js';

/** The REST client: `rest.GET('/post/{id}', { params: { path: { id } } })`, typed by the OpenAPI document. */
export type RestClient = Client<paths>;

/** A thin openapi-fetch client of the REST API, sending the bearer token with every request. */
export function createRestClient(options: ConnectionOptions): RestClient {
  const client = createFetchClient<paths>({ baseUrl: baseUrl(options.url), fetch: options.fetch });
  client.use({
    async onRequest({ request }) {
      for (const [name, value] of Object.entries(await authorizationHeader(options)))
        request.headers.set(name, value);
      return request;
    },
  });
  return client;
}
