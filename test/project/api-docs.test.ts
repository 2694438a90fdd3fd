/**
 * The interactive API reference: served by `npm start` at /api/docs from the installed swagger-ui-dist (no
 * CDN), and by the deployed stack's docs function, bundled here as CDK bundles it and invoked with API
 * Gateway's event, so both answer the same page and document.
 */

import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyEvent, APIGatewayProxyResult } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { operations } from '../../functions/registry.ts';
import { docsBundleFiles } from '../../infra/api/api-docs.ts';
import { functionDefaults, repositoryRoot } from '../../infra/api/operation-functions.ts';
import { DOCS_ASSETS } from '../../shared/api-docs.ts';
import { type OpenApiDocument, openApiDocument } from '../../shared/openapi.ts';

const swaggerUi = dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const apiUrl = () => inject('apiUrl');

describe('the API reference of npm start', () => {
  it('is a page at /api/docs that loads Swagger UI and the document from this server only', async () => {
    // Act
    const res = await fetch(`${apiUrl()}/api/docs`);
    const page = await res.text();
    // Assess
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page).toContain('src="docs/swagger-ui-bundle.js"');
    expect(page).toContain('href="docs/swagger-ui.css"');
    expect(page).toContain("url: 'openapi.json'");
    expect(page).toContain('validatorUrl: null');
    expect(page).not.toMatch(/https?:\/\//);
  });

  it.each(Object.entries(DOCS_ASSETS))('serves %s from the installed swagger-ui-dist', async (name, mediaType) => {
    // Act
    const res = await fetch(`${apiUrl()}/api/docs/${name}`);
    // Assess
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(mediaType);
    expect(Buffer.from(await res.arrayBuffer()).equals(readFileSync(join(swaggerUi, name)))).toBe(true);
  });

  it('answers 404 for a file of the package it does not serve, and 405 for a method other than GET', async () => {
    // Act
    const [other, posted] = await Promise.all([
      fetch(`${apiUrl()}/api/docs/package.json`),
      fetch(`${apiUrl()}/api/docs`, { method: 'POST' }),
    ]);
    // Assess
    expect(other.status).toBe(404);
    expect(posted.status).toBe(405);
  });

  it('names the server with the scheme a proxy in front reports in X-Forwarded-Proto', async () => {
    // Act
    const [direct, proxied] = await Promise.all([
      fetch(`${apiUrl()}/api/openapi.json`).then((res) => res.json() as Promise<OpenApiDocument>),
      fetch(`${apiUrl()}/api/openapi.json`, { headers: { 'X-Forwarded-Proto': 'https' } }).then(
        (res) => res.json() as Promise<OpenApiDocument>,
      ),
    ]);
    // Assess
    const host = new URL(apiUrl()).host;
    expect(direct.servers).toEqual([{ url: `http://${host}` }]);
    expect(proxied.servers).toEqual([{ url: `https://${host}` }]);
  });
});

describe('the API reference of the deployed stack', () => {
  let bundleDir: string;
  let handler: (event: APIGatewayProxyEvent) => Promise<APIGatewayProxyResult>;

  beforeAll(async () => {
    // Bundled as the stack bundles it (esbuild, the functions' options), with the files ApiDocsSite copies next to it.
    bundleDir = mkdtempSync(join(tmpdir(), 'fleet-docs-bundle-'));
    const { banner, format, target, mainFields } = functionDefaults.bundling;
    await build({
      entryPoints: [join(repositoryRoot, 'infra/api/api-docs-function.ts')],
      outfile: join(bundleDir, 'index.mjs'),
      bundle: true,
      platform: 'node',
      format,
      target,
      mainFields,
      banner: { js: banner },
      logLevel: 'silent',
    });
    writeFileSync(join(bundleDir, 'openapi.json'), JSON.stringify(openApiDocument(operations)));
    for (const file of docsBundleFiles(bundleDir)) if (dirname(file) !== bundleDir) copyFileSync(file, join(bundleDir, basename(file)));
    ({ handler } = await import(pathToFileURL(join(bundleDir, 'index.mjs')).href));
  }, 60_000);

  afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));

  const event = (path: string): APIGatewayProxyEvent =>
    ({
      httpMethod: 'GET',
      path,
      headers: { Host: 'abc123.execute-api.eu-west-1.amazonaws.com', 'X-Forwarded-Proto': 'https' },
      requestContext: { stage: 'v1' },
    }) as unknown as APIGatewayProxyEvent;

  it('answers the same page as npm start', async () => {
    // Act
    const [deployed, local] = await Promise.all([handler(event('/api/docs')), fetch(`${apiUrl()}/api/docs`).then((res) => res.text())]);
    // Assess
    expect(deployed.statusCode).toBe(200);
    expect(deployed.body).toBe(local);
  });

  it("answers the document made at synth, naming the stage's https URL as its server", async () => {
    // Act
    const res = await handler(event('/api/openapi.json'));
    // Assess
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual({
      ...openApiDocument(operations),
      servers: [{ url: 'https://abc123.execute-api.eu-west-1.amazonaws.com/v1' }],
    });
  });

  it.each(Object.keys(DOCS_ASSETS))('serves %s from its bundle', async (name) => {
    // Act
    const res = await handler(event(`/api/docs/${name}`));
    // Assess
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(readFileSync(join(swaggerUi, name), 'utf8'));
  });
});
