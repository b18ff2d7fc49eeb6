/** The paths the host serves itself, beside the procedures' REST paths: tRPC, probes, the document and its page. */
export const HOST_PATHS = {
  trpc: '/trpc',
  health: '/health',
  ready: '/ready',
  metrics: '/metrics',
  openapi: '/openapi.json',
  docs: '/docs',
} as const;
