import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

export const OPENAPI_PATH = '/v1/openapi.json';
export const DOCS_PATH = '/docs';

/** The only swagger-ui-dist files the page loads (its own index.html would fetch an online demo document). */
const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>docs-hub API reference</title>
  <link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
  <link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
  <script src="${DOCS_PATH}/init.js"></script>
</body>
</html>
`;

// validatorUrl: null keeps swagger-ui from sending the document to the online validator.
const INIT = `window.ui = SwaggerUIBundle(${JSON.stringify({
  url: OPENAPI_PATH,
  dom_id: '#swagger-ui',
  deepLinking: true,
  displayOperationId: true,
  docExpansion: 'list',
  validatorUrl: null,
})});\n`;

/** swagger-ui-dist as @nestjs/swagger depends on it, wherever the install placed it. */
function swaggerUiDist(): string {
  const fromSwagger = createRequire(require.resolve('@nestjs/swagger/package.json'));
  return dirname(fromSwagger.resolve('swagger-ui-dist/package.json'));
}

/**
 * Serves the API document at /v1/openapi.json and a swagger-ui page rendering it at /docs, every asset from
 * this server. These are Fastify routes outside Nest's router, so the AuthGuard does not apply: no token is
 * needed. The assets are read once here, the document built once when first asked for; call this before
 * `app.init()`, since Fastify takes no routes once it is ready.
 */
export function serveApiReference(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  const serve = (path: string, type: string, body: string | Buffer) =>
    fastify.get(path, (_request, reply) => {
      reply.type(type).send(body);
    });
  // Built on first use: loading @nestjs/swagger and building the document took a quarter of a start-up
  // (about 0.5 s of the main thread's 2.2 s in a profile), for a document few callers ask for.
  let document: Promise<string> | undefined;
  fastify.get(OPENAPI_PATH, async (_request, reply) => {
    document ??= import('./document').then(({ buildApiDocument }) => JSON.stringify(buildApiDocument(app)));
    return reply.type('application/json; charset=utf-8').send(await document);
  });
  serve(DOCS_PATH, 'text/html; charset=utf-8', PAGE);
  fastify.get(`${DOCS_PATH}/`, (_request, reply) => {
    reply.redirect(DOCS_PATH);
  });
  serve(`${DOCS_PATH}/init.js`, 'text/javascript; charset=utf-8', INIT);
  const dist = swaggerUiDist();
  for (const [file, type] of Object.entries(ASSETS)) {
    serve(`${DOCS_PATH}/${file}`, type, readFileSync(join(dist, file)));
  }
}
