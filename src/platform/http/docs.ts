import express, { type Router } from 'express';
import { getAbsoluteFSPath } from 'swagger-ui-dist';

const page = `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Hotel PMS API</title><link rel="stylesheet" href="/api/docs/assets/swagger-ui.css"></head>
<body><div id="swagger-ui"></div>
<script src="/api/docs/assets/swagger-ui-bundle.js"></script>
<script src="/api/docs/init.js"></script>
</body>
</html>`;

const initScript = `window.ui = SwaggerUIBundle({ url: '/api/openapi.json', dom_id: '#swagger-ui' });`;

/**
 * `/api/openapi.json` with a browsable page at `/api/docs` (served from local assets, no CDN), and the AsyncAPI
 * document of the realtime channel at `/api/asyncapi.json`.
 */
export function docsRouter(documents: { openApi: object; asyncApi: object }): Router {
  const router = express.Router();
  router.get('/api/openapi.json', (_req, res) => {
    res.json(documents.openApi);
  });
  router.get('/api/asyncapi.json', (_req, res) => {
    res.json(documents.asyncApi);
  });
  router.get('/api/docs', (_req, res) => {
    res.type('html').send(page);
  });
  router.get('/api/docs/init.js', (_req, res) => {
    res.type('application/javascript').send(initScript);
  });
  router.use('/api/docs/assets', express.static(getAbsoluteFSPath(), { index: false }));
  return router;
}
