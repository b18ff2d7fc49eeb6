import { describe, expect, it } from 'vitest';
import { productionDependencies } from './inventory';

describe('API10:2023 Unsafe Consumption of APIs', () => {
  // Not applicable: the service consumes no third-party API; its reference data (states, cities)
  // ships inside a pinned package. The dependency list is pinned here so an API client shows in review.
  it('the production dependencies are the known ones, and none is a client of a third-party API', () => {
    expect(productionDependencies).toEqual([
      '@brazilian-utils/brazilian-utils', // IBGE states and cities as static data in the package
      '@electric-sql/pglite', // embedded PostgreSQL, in process
      '@opentelemetry/api', // traces, loaded only with OTEL_EXPORTER_OTLP_ENDPOINT (operator configuration)
      '@opentelemetry/context-async-hooks',
      '@opentelemetry/core',
      '@opentelemetry/exporter-trace-otlp-http',
      '@opentelemetry/exporter-trace-otlp-proto',
      '@opentelemetry/resources',
      '@opentelemetry/sdk-trace',
      '@opentelemetry/semantic-conventions',
      '@trpc/server',
      'cors',
      'drizzle-orm',
      'express',
      'helmet',
      'ical-generator', // the .ics calendar files, written in process
      'ioredis', // optional rate-limit store at REDIS_URL (operator configuration, not user input)
      'jsonwebtoken',
      'nodemailer', // mail to the operator's own SMTP server at SMTP_URL (operator configuration)
      'pg-boss', // the job queue, in the same database (its own pg pool on PostgreSQL)
      'pino',
      'postgres', // the database at DATABASE_URL (operator configuration)
      'prom-client',
      'swagger-ui-dist', // static files for /docs, served locally (no CDN)
      'trpc-to-openapi',
      'zod',
      'zod-openapi',
    ]);
  });
});
