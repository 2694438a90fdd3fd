import { ArnFormat, Stack } from 'aws-cdk-lib';
import * as iam from 'aws-cdk-lib/aws-iam';
import type { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as secretsmanager from 'aws-cdk-lib/aws-secretsmanager';
import type { Construct } from 'constructs';
import type { Operation } from '../../functions/registry.ts';
import { env } from '../../shared/config.ts';

/**
 * Third-party provider settings, from CDK context (cdk.json or `-c name=value`):
 *   liveMapProvider      amazon-location | google | tiles | offline   (getLiveMap; default amazon-location)
 *   amazonLocationMapStyle                             Satellite (default) | Standard
 *   mapTilesUrl, mapTilesKeySecretName, mapTilesAttribution   the tiles provider: URL template, its key's secret, credit line
 *   directionsProvider   amazon | osrm | google | estimate   (addRoute; amazon by default)
 *   osrmUrl              OSRM's base URL, required with osrm (the public demo server is never a default)
 *   googleStaticMapsUrl, googleDirectionsUrl           optional base URLs
 *   googleDirectionsSecretName                         Secrets Manager secret holding the Google Directions key
 *   geocoding context: see configureGeocoding
 * Keys never enter the template: the function gets the secret's name and read permission only.
 */
export function configureProvider(scope: Construct, fn: NodejsFunction, operation: Operation): void {
  const context = (name: string): string | undefined => scope.node.tryGetContext(name) as string | undefined;
  const setIfGiven = (variable: string, value: string | undefined) => value && fn.addEnvironment(variable, value);

  if (operation.provider === 'live-map') configureLiveMap(scope, fn, context, setIfGiven);
  if (operation.provider === 'directions') {
    const provider = context('directionsProvider') ?? 'amazon';
    if (provider === 'osrm' && !context('osrmUrl')) {
      throw new Error(
        'directionsProvider osrm needs the context value osrmUrl ' +
          '(your OSRM server: the public demo server does not allow production traffic)',
      );
    }
    fn.addEnvironment(env.directionsProvider, provider);
    if (provider === 'amazon') grantAmazonLocation(fn, 'geo-routes', 'CalculateRoutes');
    configureGeocoding(scope, fn);
    setIfGiven(env.osrmUrl, context('osrmUrl'));
    setIfGiven(env.googleDirectionsUrl, context('googleDirectionsUrl'));
    const secretName = context('googleDirectionsSecretName');
    if (provider === 'google' && !secretName) {
      throw new Error('directionsProvider google needs the context value googleDirectionsSecretName (a Secrets Manager secret)');
    }
    if (secretName) {
      const secret = secretsmanager.Secret.fromSecretNameV2(scope, 'GoogleDirectionsKey', secretName);
      fn.addEnvironment(env.googleDirectionsApiKeySecret, secretName);
      grantSecretValue(fn, secret);
    }
  }
}

/**
 * Reverse geocoding for the functions that name places (processPositions, addRoute), from CDK context:
 *   geocodingProvider    amazon | google | nominatim | gazetteer   (amazon by default; gazetteer = offline only)
 *   googleGeocodingUrl, nominatimUrl                             optional base URLs
 *   googleGeocodingSecretName                                    Secrets Manager secret holding the Google Geocoding key
 * Amazon Location needs no key: the function may call ReverseGeocode on the AWS-managed provider, nothing else.
 */
export function configureGeocoding(scope: Construct, fn: NodejsFunction): void {
  const context = (name: string): string | undefined => scope.node.tryGetContext(name) as string | undefined;
  const provider = context('geocodingProvider') ?? 'amazon';
  fn.addEnvironment(env.geocodingProvider, provider);
  if (provider === 'amazon') grantAmazonLocation(fn, 'geo-places', 'ReverseGeocode');
  if (provider === 'nominatim' && context('nominatimUrl')) fn.addEnvironment(env.nominatimUrl, context('nominatimUrl') as string);
  if (provider === 'google') {
    const secretName = context('googleGeocodingSecretName');
    if (!secretName)
      throw new Error('geocodingProvider google needs the context value googleGeocodingSecretName (a Secrets Manager secret)');
    const secret = secretsmanager.Secret.fromSecretNameV2(fn, 'GoogleGeocodingKey', secretName);
    fn.addEnvironment(env.googleGeocodingApiKeySecret, secretName);
    const url = context('googleGeocodingUrl');
    if (url) fn.addEnvironment(env.googleGeocodingUrl, url);
    grantSecretValue(fn, secret);
  }
}

/**
 * One action on the region's AWS-managed Amazon Location provider (arn:aws:<service>:<region>::provider/default):
 * the standalone Places, Routes and Maps APIs have no resources of their own, so this is the narrowest grant.
 */
function grantAmazonLocation(fn: NodejsFunction, service: 'geo-places' | 'geo-routes' | 'geo-maps', action: string): void {
  const provider = Stack.of(fn).formatArn({
    service,
    account: '',
    resource: 'provider',
    resourceName: 'default',
    arnFormat: ArnFormat.SLASH_RESOURCE_NAME,
  });
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: [`${service}:${action}`], resources: [provider] }));
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
    grantAmazonLocation(fn, 'geo-maps', 'GetStaticMap');
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
      grantSecretValue(fn, secretsmanager.Secret.fromSecretNameV2(scope, 'MapTilesKey', secretName));
      fn.addEnvironment(env.mapTilesKeySecret, secretName);
    }
  }
}

/**
 * A secret's value, and nothing else: GetSecretValue (grantRead adds DescribeSecret, which Powertools' SecretsProvider
 * never calls). A secret known by name matches any of the six characters Secrets Manager appends to its ARN.
 */
export function grantSecretValue(fn: NodejsFunction, secret: secretsmanager.ISecret): void {
  const resource = secret.secretFullArn ?? `${secret.secretArn}-??????`;
  fn.addToRolePolicy(new iam.PolicyStatement({ actions: ['secretsmanager:GetSecretValue'], resources: [resource] }));
}
