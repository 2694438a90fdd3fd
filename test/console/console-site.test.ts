import { describe, expect, inject, it } from 'vitest';
import { consoleCsp } from '../../shared/console/site.ts';

const apiUrl = inject('apiUrl');

const securityHeadersOf = (response: Response) => ({
  csp: response.headers.get('content-security-policy'),
  nosniff: response.headers.get('x-content-type-options'),
  referrer: response.headers.get('referrer-policy'),
});

const STRICT = { csp: consoleCsp(), nosniff: 'nosniff', referrer: 'no-referrer' };

describe('the console served by the local stack', () => {
  it('answers its config with the local provider as the issuer and the public client', async () => {
    // Act
    const response = await fetch(`${apiUrl}/console/config.json`);

    // Assess
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      issuer: `${apiUrl}/oidc`,
      clientId: 'fleet-console',
      scopes: 'openid email',
      mapStyle: null,
      freeMapStyle: null,
    });
    expect(securityHeadersOf(response)).toEqual(STRICT);
  });

  it('serves its page and its routes with the strict policy, no inline script allowed', async () => {
    // Act
    const responses = await Promise.all(['/console/', '/console/callback'].map((path) => fetch(`${apiUrl}${path}`)));

    // Assess
    for (const response of responses) expect(securityHeadersOf(response)).toEqual(STRICT);
    expect(consoleCsp()).toContain("script-src 'self';");
    expect(consoleCsp()).not.toContain('unsafe-inline');
  });

  it('sends /console to /console/', async () => {
    // Act
    const response = await fetch(`${apiUrl}/console`, { redirect: 'manual' });

    // Assess
    expect(response.status).toBe(308);
    expect(response.headers.get('location')).toBe('/console/');
  });

  it('never serves a file outside its folder', async () => {
    // Act
    const responses = await Promise.all(
      ['/console/%2e%2e/package.json', '/console/..%2f..%2fpackage.json', '/console/%E0%A4%A.js'].map((path) => fetch(`${apiUrl}${path}`)),
    );

    // Assess
    expect(responses.map((response) => response.status)).toEqual([404, 404, 404]);
  });

  it('refuses a write to its files', async () => {
    // Act
    const response = await fetch(`${apiUrl}/console/index.html`, { method: 'POST' });

    // Assess
    expect(response.status).toBe(405);
  });
});
