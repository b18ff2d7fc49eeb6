import { describe, expect, it } from 'vitest';
import { productionDependencies } from './inventory';

describe('API10:2023 Unsafe Consumption of APIs', () => {
  // The service consumes no third-party API but the browsers' push services (web-push, to the
  // endpoint a subscription names on an allowed host) and the operator's object storage; its
  // reference data (states, cities) ships inside a pinned package. The dependency list is pinned
  // here so an API client shows in review.
  it('the production dependencies are the known ones, and none is a client of a third-party API', () => {
    expect(productionDependencies).toEqual([
      '@aws-sdk/client-s3', // photos in the bucket at MEDIA_S3_* (operator configuration)
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
      'busboy', // multipart uploads parsed in process, with limits
      'cors',
      'drizzle-orm',
      'express',
      'helmet',
      'ical-generator', // the .ics calendar files, written in process
      'ioredis', // optional rate-limit store at REDIS_URL (operator configuration, not user input)
      'ipaddr.js', // a push endpoint's addresses checked (no private, loopback or link-local)
      'jsonwebtoken',
      'nodemailer', // mail to the operator's own SMTP server at SMTP_URL (operator configuration)
      'pg-boss', // the job queue, in the same database (its own pg pool on PostgreSQL)
      'pino',
      'postgres', // the database at DATABASE_URL (operator configuration)
      'prom-client',
      'sharp', // image decoding and re-encoding, in process (libvips)
      'swagger-ui-dist', // static files for /docs, served locally (no CDN)
      'trpc-to-openapi',
      'web-push', // Web Push to a subscription's endpoint on an allowed push service
      'zod',
      'zod-openapi',
    ]);
  });
});
