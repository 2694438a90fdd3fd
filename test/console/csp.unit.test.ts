/** The console's Content-Security-Policy as a function of its basemaps (shared/console/site.ts). */
import { describe, expect, it } from 'vitest';
import { consoleCsp, FREE_MAP_STYLE } from '../../shared/console/site.ts';

const STRICT = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: blob:",
  "connect-src 'self'",
  "worker-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const AMAZON_STYLE = 'https://maps.geo.eu-west-1.amazonaws.com/v2/styles/Standard/descriptor?key=v1.public.abc&color-scheme=Light';

const directive = (csp: string, name: string) => csp.split('; ').find((part) => part.startsWith(`${name} `));

describe('the console CSP', () => {
  it('with no basemap configured is the strict policy: nothing beyond its own origin', () => {
    // Act
    const csp = consoleCsp({ mapStyle: null, freeMapStyle: null });

    // Assess
    expect(csp).toBe(STRICT);
    expect(consoleCsp()).toBe(STRICT);
  });

  it('with a configured style lets the map fetch and draw from that style origin only', () => {
    // Act
    const csp = consoleCsp({ mapStyle: AMAZON_STYLE, freeMapStyle: null });

    // Assess
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://maps.geo.eu-west-1.amazonaws.com");
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob: https://maps.geo.eu-west-1.amazonaws.com");
    expect(csp.replaceAll(' https://maps.geo.eu-west-1.amazonaws.com', '')).toBe(STRICT);
  });

  it('with the free style offered adds its origin beside the configured one, each once', () => {
    // Act
    const csp = consoleCsp({ mapStyle: 'https://tiles.openfreemap.org/styles/bright', freeMapStyle: FREE_MAP_STYLE });

    // Assess
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' https://tiles.openfreemap.org");
    expect(directive(csp, 'img-src')).toBe("img-src 'self' data: blob: https://tiles.openfreemap.org");
  });

  it('keeps a port, and never lets a path or a query into the policy', () => {
    // Act
    const csp = consoleCsp({ mapStyle: "http://127.0.0.1:4567/style.json?x=1;script-src 'unsafe-inline'", freeMapStyle: null });

    // Assess
    expect(directive(csp, 'connect-src')).toBe("connect-src 'self' http://127.0.0.1:4567");
    expect(csp).not.toContain('unsafe-inline');
  });

  it.each(['not a url', 'data:application/json,{}', 'javascript:alert(1)'])('refuses a style that is not an http(s) URL: %s', (style) => {
    // Act
    const act = () => consoleCsp({ mapStyle: style, freeMapStyle: null });

    // Assess
    expect(act).toThrow(/the console's map style must be an http\(s\) URL/);
  });
});
