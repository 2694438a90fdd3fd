/**
 * The console and the API on one origin for the browser tests, as npm start serves them: a pass-through to the run's
 * API emulator on 127.0.0.1.
 */
import { createServer, request } from 'node:http';
import { type Listening, listenOnLoopback } from './loopback.ts';

/**
 * Until the emulator verifies people's tokens, the tests' tab carries the test user's API key as its bearer token and
 * this pass-through hands it on as X-Api-Key. Test-only: the console itself knows no key.
 */
export function startConsoleOrigin(apiUrl: string): Promise<Listening> {
  const target = new URL(apiUrl);
  const server = createServer((incoming, outgoing) => {
    const headers: Record<string, string | string[] | undefined> = { ...incoming.headers, host: target.host };
    const bearer = /^Bearer (.+)$/.exec(incoming.headers.authorization ?? '')?.[1];
    if (bearer) {
      delete headers.authorization;
      headers['x-api-key'] = bearer;
    }
    const forwarded = request(
      { host: target.hostname, port: target.port, path: incoming.url, method: incoming.method, headers },
      (answer) => {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
      },
    );
    forwarded.on('error', () => outgoing.writeHead(502).end());
    incoming.pipe(forwarded);
  });
  return listenOnLoopback(server);
}

/** The session the console keeps after sign-in, put in the tab once, before its first script runs. */
export const sessionScript = (token: string): string =>
  `if (!sessionStorage.getItem('test-session-given')) {
    sessionStorage.setItem('test-session-given', '1');
    sessionStorage.setItem('fleet-console.session', JSON.stringify({ accessToken: ${JSON.stringify(token)}, expiresAt: Date.now() + 3600000 }));
  }`;
