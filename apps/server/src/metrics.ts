import cluster from 'node:cluster';
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Request, RequestHandler } from 'express';
import {
  AggregatorRegistry,
  Counter,
  Gauge,
  Histogram,
  collectDefaultMetrics,
  register,
} from 'prom-client';
import { procedurePaths } from '@campus/api';
import type { DatabaseHandle } from '@campus/core/db';

collectDefaultMetrics();
// A worker answers the primary's aggregation requests once an AggregatorRegistry exists in it.
if (cluster.isWorker) new AggregatorRegistry();

const httpRequests = new Counter({
  name: 'http_requests_total',
  help: 'HTTP requests by route and status',
  labelNames: ['method', 'route', 'status'],
});
const httpDuration = new Histogram({
  name: 'http_request_duration_seconds',
  help: 'HTTP request latency by route',
  labelNames: ['method', 'route'],
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
});

const limitRefusals = new Counter({
  name: 'campus_rate_limit_refusals_total',
  help: 'Calls refused 429 by a limit, per limit and procedure (empty: refused before routing)',
  labelNames: ['limit', 'procedure'],
});

/** Counts one call refused by `limit` (core's LimitError); `procedure` empty before routing. */
export const countRefusal = (limit: string, procedure: string) =>
  limitRefusals.inc({ limit, procedure });

/** Database pool settings and health, read at scrape time. */
export function registerDatabaseMetrics(
  database: Pick<DatabaseHandle, 'kind' | 'ping' | 'poolConnections' | 'poolUsage'>,
  poolMax: number,
) {
  const { kind, poolConnections, poolUsage } = database;
  new Gauge({
    name: 'db_pool_max_connections',
    help: 'Configured connections per process',
    labelNames: ['kind'],
  })
    .labels(kind)
    .set(kind === 'pglite' ? 1 : poolMax);
  new Gauge({
    name: 'db_up',
    help: '1 when the database answered the last scrape',
    aggregator: 'min',
    async collect() {
      this.set((await database.ping()) ? 1 : 0);
    },
  });
  if (poolUsage)
    new Gauge({
      // OpenTelemetry's db.client.connection.pending_requests, as the process counts its work.
      name: 'db_client_connection_pending_requests',
      help: 'Statements and transactions of this process waiting for a query connection',
      aggregator: 'sum',
      collect() {
        this.set(poolUsage.waiting);
      },
    });
  if (poolConnections)
    new Gauge({
      // OpenTelemetry's db.client.connection.count: used (a statement or a transaction open) or idle.
      name: 'db_client_connection_count',
      help: "This process's query connections as PostgreSQL sees them, by state (used or idle)",
      labelNames: ['state'],
      async collect() {
        const states = await poolConnections().catch(() => undefined);
        if (!states) return;
        const idle = states.get('idle') ?? 0;
        const total = [...states.values()].reduce((sum, n) => sum + n, 0);
        this.labels('idle').set(idle);
        this.labels('used').set(total - idle);
      },
    });
}

declare module 'node:http' {
  interface IncomingMessage {
    /** The procedure (REST or /trpc), list or host route that served the request: its metrics label. */
    routeLabel?: string;
  }
}

/**
 * The one rule of metrics route labels: whoever matches a request to a route names it here (the
 * REST router: the procedure's path; /trpc: `trpc:<procedure>`; a static list; the web app;
 * the probes and docs: their Express route). Anything unnamed is `unmatched`, so the label set
 * stays bounded whatever paths clients send. A property, not a WeakMap entry: one per request
 * was a visible cost.
 */
export const setRouteLabel = (req: IncomingMessage, label: string) => {
  req.routeLabel = label;
};

/** The label of a /trpc request (`/feed.list` or a batch `/a,b` below the mount), bounded. */
export function trpcRouteLabel(procedures: string): string {
  const names = procedures.split(',');
  if (!names.every((name) => procedurePaths.has(name))) return 'unmatched';
  return names.length === 1 ? `trpc:${names[0]}` : 'trpc:batch';
}

/**
 * Counts a request and its latency, once its response has finished (`started`: its
 * `performance.now()` on arrival). Observed directly rather than through `startTimer`, which
 * costs a closure, an hrtime pair and a merged label object per request.
 */
export function countRequest(req: Request, res: ServerResponse, started: number): void {
  const route = req.routeLabel ?? (req.route?.path ? String(req.route.path) : 'unmatched');
  const { method } = req;
  httpDuration.observe({ method, route }, (performance.now() - started) / 1000);
  httpRequests.inc({ method, route, status: String(res.statusCode) });
}

/**
 * GET /metrics. In a worker of WEB_CONCURRENCY > 1 the primary aggregates every worker's metrics
 * (prom-client's AggregatorRegistry), so a scrape sees the whole server whichever worker answers.
 */
export const metricsHandler: RequestHandler = async (_req, res, next) => {
  try {
    const body = cluster.isWorker ? await clusterMetricsFromPrimary() : await register.metrics();
    res.type(register.contentType).send(body);
  } catch (error) {
    next(error);
  }
};

const REQUEST = 'campus:metrics-request';
const RESPONSE = 'campus:metrics-response';

function clusterMetricsFromPrimary(): Promise<string> {
  return new Promise((resolve, reject) => {
    const id = randomUUID();
    const timer = setTimeout(() => {
      process.off('message', onMessage);
      reject(new Error('metrics: no answer from the primary'));
    }, 5000);
    const onMessage = (message: { type?: string; id?: string; metrics?: string }) => {
      if (message?.type !== RESPONSE || message.id !== id) return;
      clearTimeout(timer);
      process.off('message', onMessage);
      resolve(message.metrics ?? '');
    };
    process.on('message', onMessage);
    process.send!({ type: REQUEST, id });
  });
}

/** In the primary: answers workers' metrics requests with the aggregate of all workers. */
export function serveClusterMetrics() {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, message: { type?: string; id?: string }) => {
    if (message?.type !== REQUEST) return;
    aggregator.clusterMetrics().then(
      (metrics) => worker.send({ type: RESPONSE, id: message.id, metrics }),
      () => worker.send({ type: RESPONSE, id: message.id, metrics: '' }),
    );
  });
}
