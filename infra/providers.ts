import { Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { env } from '../shared/config.ts';
import type { Operation } from '../shared/operations.ts';

/**
 * Third-party provider settings, from CDK context (cdk.json or `-c name=value`):
 *   liveMapProvider      amazon-location | google | tiles | offline   (getLiveMap; default amazon-location)
 *   amazonLocationMapStyle                             Satellite (default) | Standard
 *   mapTilesUrl, mapTilesKeySecretName, mapTilesAttribution   the tiles provider: URL template, its key's secret, credit line
 *   directionsProvider   osrm | google | estimate      (addRoute)
 *   osrmUrl, googleStaticMapsUrl, googleDirectionsUrl  optional base URLs
 *   googleDirectionsSecretName                         Secrets Manager secret holding the Google Directions key
 * Keys never enter the template: the function gets the secret's name and read permission only.
 */
export function configureProvider(scope: Construct, fn: NodejsFunction, operation: Operation): void {
  const context = (name: string): string | undefined => scope.node.tryGetContext(name) as string | undefined;
  const setIfGiven = (variable: string, value: string | undefined) => value && fn.addEnvironment(variable, value);

  if (operation.provider === 'live-map') configureLiveMap(scope, fn, context, setIfGiven);
  if (operation.provider === 'directions') {
    const provider = context('directionsProvider') ?? 'osrm';
    fn.addEnvironment(env.directionsProvider, provider);
    setIfGiven(env.osrmUrl, context('osrmUrl'));
    setIfGiven(env.googleDirectionsUrl, context('googleDirectionsUrl'));
    const secretName = context('googleDirectionsSecretName');
    if (provider === 'google' && !secretName) {
      throw new Error('directionsProvider google needs the context value googleDirectionsSecretName (a Secrets Manager secret)');
    }
    if (secretName) {
      const secret = secretsmanager.Secret.fromSecretNameV2(scope, 'GoogleDirectionsKey', secretName);
      fn.addEnvironment(env.googleDirectionsApiKeySecret, secretName);
      secret.grantRead(fn);
    }
  }
}

function configureLiveMap(
  scope: Construct,
  fn: NodejsFunction,
  context: (name: string) => string | undefined,
  setIfGiven: (variable: string, value: string | undefined) => unknown,
): void {
  const provider = context('liveMapProvider') ?? 'amazon-location';
  fn.addEnvironment(env.liveMapProvider, provider);
  setIfGiven(env.googleStaticMapsUrl, context('googleStaticMapsUrl'));
  if (provider === 'amazon-location') {
    setIfGiven(env.amazonLocationMapStyle, context('amazonLocationMapStyle'));
    // The standalone Maps API has no resource of its own: the provider resource is the narrowest grant.
    fn.addToRolePolicy(new iam.PolicyStatement({
      actions: ['geo-maps:GetStaticMap'],
      resources: [`arn:${Stack.of(scope).partition}:geo-maps:${Stack.of(scope).region}::provider/default`],
    }));
  }
  if (provider === 'tiles') {
    const template = context('mapTilesUrl');
    if (!template || !['{z}', '{x}', '{y}'].every((part) => template.includes(part))) {
      throw new Error('liveMapProvider tiles needs the context value mapTilesUrl, a URL template with {z}, {x} and {y}');
    }
    fn.addEnvironment(env.mapTilesUrl, template);
    setIfGiven(env.mapTilesAttribution, context('mapTilesAttribution'));
    const secretName = context('mapTilesKeySecretName');
    if (secretName) {
      secretsmanager.Secret.fromSecretNameV2(scope, 'MapTilesKey', secretName).grantRead(fn);
      fn.addEnvironment(env.mapTilesKeySecret, secretName);
    }
  }
}
