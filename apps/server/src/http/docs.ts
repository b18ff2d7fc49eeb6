import { buildOpenApiDocument } from '@campus/api';
import { Router } from 'express';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { HOST_PATHS } from './host-paths';
import { probePaths } from './probes';
import { mediaFilePaths } from './media-files';

const SWAGGER_UI_FILES = new Set([
  'index.html',
  'index.css',
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'swagger-ui-standalone-preset.js',
  'favicon-16x16.png',
  'favicon-32x32.png',
]);

const swaggerUiDir = dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

/**
 * `/openapi.json` and Swagger UI at `/docs`, from the local swagger-ui-dist files. The document
 * is built at the first request for it and kept as its JSON text: a process that never serves
 * it neither spends its start building it nor holds it.
 */
export function docsRouter(): Router {
  let documentJson: string | undefined;
  const router = Router();
  router.get(HOST_PATHS.openapi, (_req, res) => {
    documentJson ??= JSON.stringify(
      buildOpenApiDocument('/', { ...probePaths, ...mediaFilePaths }),
    );
    res.type('application/json').send(documentJson);
  });
  router.get(`${HOST_PATHS.docs}/swagger-initializer.js`, (_req, res) => {
    res
      .type('application/javascript')
      .send(
        `window.onload = () => { window.ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#swagger-ui', presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset], layout: 'StandaloneLayout' }); };`,
      );
  });
  // Only the files the page loads: not swagger-ui-dist's package.json, README or source maps.
  router.get(HOST_PATHS.docs, (req, res, next) =>
    req.path === HOST_PATHS.docs ? res.redirect(301, `${HOST_PATHS.docs}/`) : next(),
  );
  router.use(HOST_PATHS.docs, function swaggerUiFiles(req, res, next) {
    const file = req.path === '/' ? 'index.html' : req.path.slice(1);
    if (!SWAGGER_UI_FILES.has(file)) return next();
    res.sendFile(file, { root: swaggerUiDir, maxAge: '1d' });
  });
  return router;
}
