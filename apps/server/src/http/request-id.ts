import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';

const SAFE_ID = /^[\w.:-]{1,128}$/;

/** Every response carries `x-request-id`: the client's when it sent a sane one, else a new UUID. */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): void {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && SAFE_ID.test(sent) ? sent : randomUUID();
  req.headers['x-request-id'] = id;
  res.setHeader('x-request-id', id);
}
