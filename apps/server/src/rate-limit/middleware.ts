import type { Request, RequestHandler } from 'express';
import type { Limiter } from './limiter';

/** REST paths and tRPC procedures whose every attempt counts against the authentication limit. */
const AUTH_ROUTES = new Set([
  'POST /autenticacao/login',
  'POST /autenticacao/atualizar-token',
  'POST /autenticacao/cadastro',
  'POST /trpc/auth.login',
  'POST /trpc/auth.refresh',
  'POST /trpc/students.register',
]);

export const isAuthRoute = (req: Request) =>
  AUTH_ROUTES.has(`${req.method} ${req.path.length > 1 ? req.path.replace(/\/$/, '') : req.path}`);

/**
 * 429 with Retry-After when the limiter refuses. A store failure lets the request through (and is
 * logged): the limits protect the service, they must not take it down with the store.
 */
export function rateLimit(limiter: Limiter, applies: (req: Request) => boolean = () => true): RequestHandler {
  return (req, res, next) => {
    if (!applies(req)) return next();
    Promise.resolve(limiter.hit(req.ip ?? 'unknown')).then(
      (decision) => {
        if (decision.allowed) return next();
        res.setHeader('Retry-After', String(decision.retryAfter));
        res.status(429).json({
          code: 'TOO_MANY_REQUESTS',
          message: 'Muitas requisições; tente novamente mais tarde',
          reason: 'RATE_LIMITED',
        });
      },
      (error: unknown) => {
        req.log?.warn({ err: error, reqId: req.headers['x-request-id'] }, 'rate limit store unavailable; request allowed');
        next();
      },
    );
  };
}
