/**
 * A person in the deployed stack's Cognito user pool (docs/console.md): `npm run admin -- user create --email E
 * --table T --user-pool-id P` makes the account there, and Cognito e-mails its temporary password, so the admin CLI
 * never sees a password; the table's person item then maps the pool's issuer and the account's `sub` to the user.
 */
import { AdminCreateUserCommand, CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';

/** Cognito's issuer for a pool: its id begins with its region (`eu-west-1_AbC123`). */
export function cognitoIssuer(userPoolId: string): string {
  const region = /^([a-z]{2}(?:-[a-z]+)+-\d)_[0-9A-Za-z]+$/.exec(userPoolId)?.[1];
  if (!region) throw new Error(`${userPoolId} is not a Cognito user pool id (region_id, e.g. eu-west-1_AbC123)`);
  return `https://cognito-idp.${region}.amazonaws.com/${userPoolId}`;
}

export async function createCognitoAccount(
  userPoolId: string,
  email: string,
  client = new CognitoIdentityProviderClient({ region: cognitoIssuer(userPoolId).split('.')[1] }),
): Promise<{ issuer: string; subject: string }> {
  const issuer = cognitoIssuer(userPoolId);
  const { User } = await client.send(
    new AdminCreateUserCommand({
      UserPoolId: userPoolId,
      Username: email,
      UserAttributes: [
        { Name: 'email', Value: email },
        { Name: 'email_verified', Value: 'true' },
      ],
      DesiredDeliveryMediums: ['EMAIL'],
    }),
  );
  const subject = User?.Attributes?.find((attribute) => attribute.Name === 'sub')?.Value;
  if (!subject) throw new Error(`Cognito made ${email} but answered no sub`);
  return { issuer, subject };
}
