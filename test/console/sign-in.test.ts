/**
 * People sign in at the local provider (authorization code + PKCE, in code with oauth4webapi) and call the API with
 * the access token, as the console does.
 */
import { createSign, generateKeyPairSync } from 'node:crypto';
import { describe, expect, inject, it } from 'vitest';
import { api } from '../support/api.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { startIsolatedEmulator } from '../support/isolated-emulator.ts';
import { authorize, bearer, givenSignedInPerson, signIn } from '../support/sign-in.ts';

const apiUrl = inject('apiUrl');

/** A JWT signed with a key of the test's own, with the claims given: what a forger or another issuer would send. */
function forgedToken(claims: Record<string, unknown>): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const unsigned = `${part({ alg: 'RS256', typ: 'at+jwt', kid: 'forged' })}.${part(claims)}`;
  const signature = createSign('RSA-SHA256').update(unsigned).sign(privateKey).toString('base64url');
  return `${unsigned}.${signature}`;
}

const claimsOf = (token: string) => JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8'));

describe('signing in at the local provider', () => {
  it('gives a JWT access token for the API that getVehicles accepts as the user', async () => {
    // Prepare
    const user = await givenUser();
    const vehicle = await givenVehicle(user);
    const person = await givenSignedInPerson(apiUrl, user);

    // Act
    const answer = await api.get('getVehicles', {}, bearer(person.accessToken));

    // Assess
    expect(answer.status).toBe(200);
    expect(answer.body.vehicles.map((found: { vehicle_uid: number }) => Number(found.vehicle_uid))).toEqual([vehicle.vehicleUid]);
    expect(claimsOf(person.accessToken)).toMatchObject({ iss: `${apiUrl}/oidc`, aud: `${apiUrl}/api`, client_id: 'fleet-console' });
  });

  it('shows the sign-in form again, with an alert, for a wrong password', async () => {
    // Prepare
    const user = await givenUser();
    const person = await givenSignedInPerson(apiUrl, user);
    const discovery = (await (await fetch(`${apiUrl}/oidc/.well-known/openid-configuration`)).json()) as { authorization_endpoint: string };
    const authorization = new URL(discovery.authorization_endpoint);
    authorization.search = new URLSearchParams({
      client_id: 'fleet-console',
      redirect_uri: `${apiUrl}/console/callback`,
      response_type: 'code',
      scope: 'openid email',
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    }).toString();

    // Act
    const attempt = await authorize(apiUrl, authorization, person.email, 'not the password');

    // Assess
    expect(attempt.callback).toBeUndefined();
    expect(attempt.response.status).toBe(401);
    expect(await attempt.response.text()).toContain('<p role="alert">Wrong e-mail address or password.</p>');
  });

  it('refuses an authorization request without PKCE', async () => {
    // Act
    const response = await fetch(
      `${apiUrl}/oidc/auth?${new URLSearchParams({
        client_id: 'fleet-console',
        redirect_uri: `${apiUrl}/console/callback`,
        response_type: 'code',
        scope: 'openid email',
      })}`,
      { redirect: 'manual' },
    );

    // Assess
    const location = new URL(response.headers.get('location') ?? '', apiUrl);
    expect(location.searchParams.get('error')).toBe('invalid_request');
    expect(location.searchParams.get('error_description')).toMatch(/PKCE/);
  });

  it('refuses an unknown address as a wrong password', async () => {
    // Act
    const failed = await signIn(apiUrl, 'nobody@fleet.example', 'whatever').catch((error: Error) => error.message);

    // Assess
    expect(failed).toBe('sign-in stopped with 401');
  });
});

describe('a bearer token on the API', () => {
  it('is refused when another key signed it, with every claim right', async () => {
    // Prepare
    const user = await givenUser();
    const person = await givenSignedInPerson(apiUrl, user);

    // Act
    const answer = await api.get('getVehicles', {}, bearer(forgedToken(claimsOf(person.accessToken))));

    // Assess
    expect(answer).toBeError(401, 'access token invalid');
  });

  it('is refused from another issuer', async () => {
    // Prepare
    const user = await givenUser();
    const person = await givenSignedInPerson(apiUrl, user);
    const claims = { ...claimsOf(person.accessToken), iss: 'https://issuer.example' };

    // Act
    const answer = await api.get('getVehicles', {}, bearer(forgedToken(claims)));

    // Assess
    expect(answer).toBeError(401, 'access token invalid');
  });

  it('is refused when it is the ID token (its audience is the console, not the API)', async () => {
    // Prepare
    const user = await givenUser();
    const person = await givenSignedInPerson(apiUrl, user);

    // Act
    const answer = await api.get('getVehicles', {}, bearer(String(person.idToken)));

    // Assess
    expect(answer).toBeError(401, 'access token invalid');
  });

  it('is refused blank, as a blank key is', async () => {
    // Act
    const answers = await Promise.all(
      ['Bearer ', 'Bearer', 'Basic abc'].map((value) => api.get('getVehicles', {}, { headers: { Authorization: value } })),
    );

    // Assess
    expect(answers.map((answer) => [answer.status, answer.body.error_msg])).toEqual([
      [401, 'access token invalid'],
      [401, 'access token invalid'],
      [401, 'access token invalid'],
    ]);
  });
});

describe('an access token past its lifetime', () => {
  it('is accepted, then refused as expired', async () => {
    // Prepare: a stack whose provider gives tokens of 10 s
    const emulator = await startIsolatedEmulator({ OIDC_ACCESS_TOKEN_TTL_S: '10' });
    try {
      const user = await givenUser();
      const person = await givenSignedInPerson(emulator.url, user);
      // Act
      const fresh = await emulator.api.get('getVehicles', {}, bearer(person.accessToken));
      let later = fresh;
      for (let attempt = 0; attempt < 60 && later.status === 200; attempt++) {
        await new Promise((resolve) => setTimeout(resolve, 1000));
        later = await emulator.api.get('getVehicles', {}, bearer(person.accessToken));
      }
      // Assess
      expect(fresh).toBeSuccess();
      expect(later).toBeError(401, 'access token expired');
      expect(claimsOf(person.accessToken).exp - claimsOf(person.accessToken).iat).toBe(10);
    } finally {
      await emulator.stop();
    }
  }, 120_000);
});
