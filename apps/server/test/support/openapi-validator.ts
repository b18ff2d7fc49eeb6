import type { RequestListener } from 'node:http';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { matchRestRoute } from '@campus/api';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIObject } from 'trpc-to-openapi';

// ajv-formats is CommonJS: its default export arrives as the module object under some loaders.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule })
  .default ?? addFormatsModule) as typeof addFormatsModule;

/** A response as supertest (or fetch, read into text) gives it. */
export interface ObservedResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body's text, as sent. */
  text: string;
}

interface HeaderObject {
  required?: boolean;
  schema?: Record<string, unknown>;
}
interface ResponseObject {
  headers?: Record<string, HeaderObject | { $ref: string }>;
  content?: Record<string, { schema?: unknown }>;
}
type Operation = { responses?: Record<string, ResponseObject | { $ref: string }> };

/** The document's operation answering `method` `path`: `GET /post/{id}`. */
export interface OperationRef {
  key: string;
  template: string;
  method: string;
  operation: Operation;
}

const DOC_ID = 'https://campus.invalid/openapi.json';

const pointer = (...parts: string[]) =>
  parts.map((part) => encodeURIComponent(part.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');

/**
 * Checks real responses against the OpenAPI document with a JSON Schema 2020-12 validator (the
 * dialect of OpenAPI 3.1): the status is one the operation documents, every required header is
 * present and each documented header's value fits its schema, the media type is the documented
 * one (no body where none is documented), and the body is valid against that response's schema,
 * `reason` enums, `additionalProperties: false` and formats included.
 */
export function createResponseValidator(doc: OpenAPIObject) {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateSchema: false });
  addFormats(ajv);
  // The whole document is the schema resource: response schemas are compiled from their place in
  // it, so `#/components/schemas/…` references resolve as they do for any OpenAPI tool.
  ajv.addSchema({ ...(doc as object), $id: DOC_ID });
  const compiled = new Map<string, ValidateFunction>();
  const validatorAt = (path: string) => {
    let validate = compiled.get(path);
    if (!validate) {
      validate = ajv.getSchema(`${DOC_ID}#/${path}`);
      if (!validate) throw new Error(`no schema at ${path}`);
      compiled.set(path, validate);
    }
    return validate;
  };
  const resolve = <T>(value: T | { $ref: string }): T => {
    if (value && typeof value === 'object' && '$ref' in value) {
      const parts = value.$ref.replace(/^#\//, '').split('/');
      return parts.reduce<unknown>(
        (node, part) => (node as Record<string, unknown>)[part.replace(/~1/g, '/')],
        doc,
      ) as T;
    }
    return value as T;
  };

  /** The documented operation for a request, matched as the server matches it. */
  function operationOf(method: string, url: string): OperationRef | undefined {
    const pathname = new URL(url, 'http://localhost').pathname;
    const verb = method.toUpperCase();
    const rest = matchRestRoute(verb, pathname);
    const template = rest
      ? rest.route.meta.openapi!.path
      : pathname.length > 1
        ? pathname.replace(/\/$/, '')
        : pathname;
    const operation = (doc.paths?.[template] as Record<string, Operation> | undefined)?.[
      verb.toLowerCase()
    ];
    return operation && { key: `${verb} ${template}`, template, method: verb, operation };
  }

  /** What is wrong with `response` as an answer of `method url`; empty when it is as documented. */
  function problems(method: string, url: string, response: ObservedResponse): string[] {
    const found = operationOf(method, url);
    if (!found) return [`${method} ${url}: no documented operation`];
    const where = `${found.key} → ${response.status}`;
    const documented = found.operation.responses?.[String(response.status)];
    if (!documented) {
      const listed = Object.keys(found.operation.responses ?? {}).join(', ');
      return [`${where}: status not documented (documented: ${listed})`];
    }
    const spec = resolve(documented);
    const out: string[] = [];
    const header = (name: string) => {
      const value = response.headers[name.toLowerCase()];
      return Array.isArray(value) ? value.join(', ') : value;
    };
    for (const [name, ref] of Object.entries(spec.headers ?? {})) {
      const object = resolve(ref);
      const value = header(name);
      if (value === undefined) {
        if (object.required) out.push(`${where}: required header ${name} missing`);
        continue;
      }
      const schema = object.schema ?? {};
      const typed = schema.type === 'integer' && /^-?\d+$/.test(value) ? Number(value) : value;
      const validate = ajv.compile(schema);
      if (!validate(typed))
        out.push(`${where}: header ${name}: ${ajv.errorsText(validate.errors)}`);
    }
    const mediaTypes = Object.keys(spec.content ?? {});
    const contentType = header('content-type')?.split(';')[0]?.trim();
    if (mediaTypes.length === 0) {
      if (response.text) out.push(`${where}: a body where none is documented`);
      return out;
    }
    if (!contentType || !mediaTypes.includes(contentType)) {
      out.push(`${where}: Content-Type ${contentType} is not ${mediaTypes.join(' or ')}`);
      return out;
    }
    let body: unknown = response.text;
    if (contentType === 'application/json') {
      try {
        body = JSON.parse(response.text);
      } catch {
        return [...out, `${where}: body is not JSON`];
      }
    }
    const path = pointer(
      'paths',
      found.template,
      found.method.toLowerCase(),
      'responses',
      String(response.status),
      'content',
      contentType,
      'schema',
    );
    const validate = validatorAt(path);
    // An event stream: each event's `data:` (JSON) is one of the documented events.
    if (contentType === 'text/event-stream') {
      for (const line of response.text.split('\n').filter((l) => l.startsWith('data: '))) {
        let event: unknown;
        try {
          event = JSON.parse(line.slice(6));
        } catch {
          out.push(`${where}: an event that is not JSON: ${line.slice(0, 300)}`);
          continue;
        }
        if (!validate(event)) {
          out.push(
            `${where}: event ${ajv.errorsText(validate.errors, { dataVar: 'data' })}: ${line.slice(0, 300)}`,
          );
        }
      }
      return out;
    }
    if (!validate(body)) {
      out.push(
        `${where}: body ${ajv.errorsText(validate.errors, { dataVar: 'body' })}: ${response.text.slice(0, 300)}`,
      );
    }
    return out;
  }

  return { operationOf, problems };
}

export type ResponseValidator = ReturnType<typeof createResponseValidator>;

/**
 * Wraps a server's request handler so that every answer of a documented REST operation or probe
 * is checked against the document as it is sent; what is wrong is collected in `problems` (the
 * test app throws them at `close()`). A 500 is left to the test that provoked it: it is no
 * documented answer, and the suites that force one assert it themselves.
 */
export function validatingHandler(handler: RequestListener, validator: ResponseValidator) {
  const problems: string[] = [];
  const wrapped: RequestListener = (req, res) => {
    const method = req.method ?? 'GET';
    const url = req.url ?? '/';
    if (!validator.operationOf(method, url)) return handler(req, res);
    const chunks: Buffer[] = [];
    const keep = (chunk: unknown) => {
      if (typeof chunk === 'string' || chunk instanceof Uint8Array) chunks.push(Buffer.from(chunk));
    };
    const write = res.write.bind(res);
    const end = res.end.bind(res);
    res.write = ((chunk: unknown, ...rest: never[]) => {
      keep(chunk);
      return write(chunk as string, ...rest);
    }) as typeof res.write;
    res.end = ((chunk?: unknown, ...rest: never[]) => {
      keep(chunk);
      return end(chunk as string, ...rest);
    }) as typeof res.end;
    res.on('finish', () => {
      if (res.statusCode === 500) return;
      const headers = Object.fromEntries(
        Object.entries(res.getHeaders()).map(([name, value]) => [name, String(value)]),
      );
      const text = decoded(Buffer.concat(chunks), headers['content-encoding']);
      problems.push(...validator.problems(method, url, { status: res.statusCode, headers, text }));
    });
    return handler(req, res);
  };
  return { handler: wrapped, problems };
}

function decoded(body: Buffer, encoding: string | undefined): string {
  if (encoding === 'br') return brotliDecompressSync(body).toString('utf8');
  if (encoding === 'gzip') return gunzipSync(body).toString('utf8');
  if (encoding === 'deflate') return inflateSync(body).toString('utf8');
  return body.toString('utf8');
}
