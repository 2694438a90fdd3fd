import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import { env } from '../shared/config.ts';
import type { Operation } from '../shared/operations.ts';

/**
 * Third-party provider settings, from CDK context (cdk.json or `-c name=value`):
 *   liveMapProvider      google | schematic            (getLiveMap; map_api_key comes with each request)
 *   directionsProvider   osrm | google | estimate      (addRoute)
 *   osrmUrl, googleStaticMapsUrl, googleDirectionsUrl  optional base URLs
 *   googleDirectionsSecretName                         Secrets Manager secret holding the Google Directions key
 * Keys never enter the template: the function gets the secret's name and read permission only.
 */
export function configureProvider(scope: Construct, fn: NodejsFunction, operation: Operation): void {
  const context = (name: string): string | undefined => scope.node.tryGetContext(name) as string | undefined;
  const setIfGiven = (variable: string, value: string | undefined) => value && fn.addEnvironment(variable, value);

  if (operation.provider === 'live-map') {
    fn.addEnvironment(env.liveMapProvider, context('liveMapProvider') ?? 'google');
    setIfGiven(env.googleStaticMapsUrl, context('googleStaticMapsUrl'));
  }
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
