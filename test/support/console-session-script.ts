/** The signed-in session the console keeps in its tab, for tests that start signed in. */

/**
 * The session the console keeps after sign-in (a real access token of the local provider: test/support/sign-in.ts),
 * put in the tab once, before its first script runs.
 */
export const sessionScript = (accessToken: string): string =>
  `if (!sessionStorage.getItem('test-session-given')) {
    sessionStorage.setItem('test-session-given', '1');
    sessionStorage.setItem(
      'fleet-console.session',
      JSON.stringify({ accessToken: ${JSON.stringify(accessToken)}, expiresAt: Date.now() + 3600000 }),
    );
  }`;
