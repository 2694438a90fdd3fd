/** The admin CLI's account in the deployed stack's Cognito user pool (scripts/cognito-person.ts). */
import { AdminCreateUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { cognitoIssuer, createCognitoAccount } from '../../scripts/cognito-person.ts';

const cognito = mockClient(CognitoIdentityProviderClient);
// the worker's next files share this class (vitest.config.ts, isolate: false)
afterAll(() => cognito.restore());
const POOL = 'eu-west-1_AbC123';

beforeEach(() => cognito.reset());

describe('cognitoIssuer', () => {
  it("is the pool's issuer URL in the pool's own region", () => {
    expect(cognitoIssuer(POOL)).toBe('https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123');
  });

  it('refuses what is not a pool id', () => {
    expect(() => cognitoIssuer('AbC123')).toThrow('is not a Cognito user pool id');
  });
});

describe('createCognitoAccount', () => {
  it('makes the account with its verified e-mail, lets Cognito e-mail the password, and answers the issuer and sub', async () => {
    // Prepare
    cognito.on(AdminCreateUserCommand).resolves({ User: { Attributes: [{ Name: 'sub', Value: 'f1e2d3c4-sub' }] } });
    // Act
    const person = await createCognitoAccount(POOL, 'ops@fleet.example', new CognitoIdentityProviderClient({ region: 'eu-west-1' }));
    // Assess
    expect(person).toEqual({ issuer: 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123', subject: 'f1e2d3c4-sub' });
    expect(cognito.commandCalls(AdminCreateUserCommand)[0]?.args[0].input).toEqual({
      UserPoolId: POOL,
      Username: 'ops@fleet.example',
      UserAttributes: [
        { Name: 'email', Value: 'ops@fleet.example' },
        { Name: 'email_verified', Value: 'true' },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
    });
  });

  it('fails when Cognito answers no sub, so no person item points at nobody', async () => {
    cognito.on(AdminCreateUserCommand).resolves({ User: { Attributes: [] } });
    await expect(
      createCognitoAccount(POOL, 'ops@fleet.example', new CognitoIdentityProviderClient({ region: 'eu-west-1' })),
    ).rejects.toThrow('answered no sub');
  });
});
