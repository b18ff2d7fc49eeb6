import { buildOpenApiDocument } from '@campus/api';
import { describe, expect, it } from 'vitest';
import { probePaths } from '../src/http/probes';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import {
  createResponseValidator,
  validatingHandler,
  type ObservedResponse,
} from './support/openapi-validator';

/**
 * The response validator must be able to fail: each wrong answer here is one the server could
 * give by mistake, and the validator has to name it.
 */
const validator = createResponseValidator(buildOpenApiDocument('/', probePaths));

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  ({
    status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'x-request-id': 'r-1',
      ...headers,
    },
    text: JSON.stringify(body),
  }) satisfies ObservedResponse;

const UUID = '3f1b7f9e-0000-4000-8000-000000000000';
const NOW = '2026-01-01T12:00:00.000Z';
const comment = {
  id: UUID,
  content: 'Hi',
  createdAt: NOW,
  updatedAt: null,
  hidden: false,
  author: { id: UUID, userName: 'ana', avatarUrl: null },
};
const created = { location: `/comment/${UUID}` };

describe('the response validator', () => {
  it('passes an answer as documented', () => {
    expect(
      validator.problems('POST', `/post/${UUID}/comment`, json(201, comment, created)),
    ).toEqual([]);
    expect(
      validator.problems(
        'POST',
        `/post/${UUID}/like`,
        json(409, {
          code: 'CONFLICT',
          message: 'You already like this post',
          reason: 'ALREADY_LIKED',
        }),
      ),
    ).toEqual([]);
  });

  it('finds the operation as the server does: trailing slash, literal before parameter', () => {
    expect(validator.operationOf('GET', '/post/')?.key).toBe('GET /post');
    expect(validator.operationOf('GET', '/autenticacao/alunos/nacionalidades/')?.key).toBe(
      'GET /autenticacao/alunos/nacionalidades',
    );
    expect(validator.operationOf('GET', `/post/${UUID}?x=1`)?.key).toBe('GET /post/{id}');
    expect(validator.operationOf('PUT', '/post')).toBeUndefined();
  });

  it('fails a body of the wrong shape, an extra field, a bad format or a missing field', () => {
    const url = `/post/${UUID}/comment`;
    const cases: unknown[] = [
      { ...comment, content: 7 },
      { ...comment, extra: true },
      { ...comment, createdAt: 'yesterday' },
      { ...comment, author: { id: 'not-a-uuid', userName: 'ana', avatarUrl: null } },
      { id: UUID, content: 'Hi', createdAt: NOW },
    ];
    for (const body of cases)
      expect(
        validator.problems('POST', url, json(201, body, created)).join(),
        JSON.stringify(body),
      ).toMatch(/body/);
  });

  it('fails a reason the operation does not answer with that status, and a reason where there is none', () => {
    const like = `/post/${UUID}/like`;
    const error = (reason?: string) => ({
      code: 'CONFLICT',
      message: 'x',
      ...(reason ? { reason } : {}),
    });
    expect(validator.problems('POST', like, json(409, error('ALREADY_ATTENDING'))).join()).toMatch(
      /reason/,
    );
    expect(validator.problems('POST', like, json(409, error('NOT_A_REASON'))).join()).toMatch(
      /reason/,
    );
    expect(
      validator
        .problems('GET', `/post/${UUID}`, json(404, { ...error('NOT_OWNER'), code: 'NOT_FOUND' }))
        .join(),
    ).toMatch(/reason/);
  });

  it('fails an undocumented status, a missing required header, a bad header value and a wrong media type', () => {
    expect(
      validator
        .problems('GET', '/post', json(500, { code: 'INTERNAL_SERVER_ERROR', message: 'x' }))
        .join(),
    ).toMatch(/status not documented/);
    expect(validator.problems('POST', `/post/${UUID}/comment`, json(201, comment)).join()).toMatch(
      /required header Location missing/,
    );
    const tooMany = { code: 'TOO_MANY_REQUESTS', message: 'x', reason: 'RATE_LIMITED' };
    expect(
      validator.problems('GET', '/post', json(429, tooMany, { 'retry-after': 'soon' })).join(),
    ).toMatch(/header Retry-After/);
    expect(validator.problems('GET', '/post', json(429, tooMany)).join()).toMatch(
      /Retry-After missing/,
    );
    expect(
      validator
        .problems('POST', `/post/${UUID}/comment`, {
          ...json(201, comment, created),
          headers: {
            'content-type': 'text/html',
            location: created.location,
            'x-request-id': 'r-1',
          },
        })
        .join(),
    ).toMatch(/Content-Type/);
    expect(
      validator
        .problems('DELETE', `/post/${UUID}`, { status: 204, headers: {}, text: '{}' })
        .join(),
    ).toMatch(/a body where none is documented/);
  });

  it('as the test app uses it: every answer a server sends is checked, compressed ones too', async () => {
    const audit = validatingHandler((req, res) => {
      res.setHeader('x-request-id', 'r-1');
      res.setHeader('content-type', 'application/json');
      if (req.url === '/post') {
        res.setHeader('content-encoding', 'gzip');
        res.end(gzipSync(JSON.stringify({ data: [], meta: { page: 1 } })));
      } else {
        res.statusCode = 201;
        res.setHeader('location', '/comment/x');
        res.write('{"id":');
        res.end('1}');
      }
    }, validator);
    const server = createServer(audit.handler).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      await (await fetch(`${base}/post`)).text();
      await (await fetch(`${base}/post/${UUID}/comment`, { method: 'POST' })).text();
      await (await fetch(`${base}/not-documented`)).text();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
    expect(audit.problems).toHaveLength(2);
    expect(audit.problems[0]).toMatch(/GET \/post → 200: body .*meta/);
    expect(audit.problems[1]).toMatch(/POST \/post\/\{id\}\/comment → 201: body/);
  });
});
