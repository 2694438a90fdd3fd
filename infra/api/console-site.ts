/**
 * The console deployed (docs/console.md): its files in a private bucket behind CloudFront with origin access control,
 * the API as a second origin of the same distribution at /api/* (one origin for the browser: no CORS), the strict CSP
 * and security headers in a response headers policy, and people signing in with Cognito's managed login (authorization
 * code + PKCE, a public app client). /console/config.json is uploaded with the files from the stack's own values, and
 * any /console/ path naming no file gets the page (a viewer-request function), whose routes are its own.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Stack } from 'aws-cdk-lib';
import type * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as cloudfront from 'aws-cdk-lib/aws-cloudfront';
import * as origins from 'aws-cdk-lib/aws-cloudfront-origins';
import * as cognito from 'aws-cdk-lib/aws-cognito';
import * as s3 from 'aws-cdk-lib/aws-s3';
import * as deployment from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_CLIENT_ID, CONSOLE_SCOPES, type ConsoleBasemaps, consoleCsp, FREE_MAP_STYLE } from '../../shared/console/site.ts';

const CONSOLE_DIST = fileURLToPath(new URL('../../console/dist/', import.meta.url));

/** Another OIDC issuer instead of the stack's Cognito pool (`-c oidcIssuer=… -c oidcClientId=… -c oidcAudience=…`). */
export interface SignInSettings {
  issuer: string;
  clientId: string;
}

export interface ConsoleSiteProps {
  api: apigateway.RestApi;
  /** the stage the API's origin path names */
  stageName: string;
  /** the access-log bucket the site's bucket and the distribution log to */
  accessLogs: s3.IBucket;
  signIn?: SignInSettings;
  /** the basemap's style URL (Amazon Location's), known at synth time: the CSP allows its origin */
  mapStyle?: string;
  /** offer OpenFreeMap's free vector style (the CSP allows its origin) */
  freeBasemap?: boolean;
}

export class ConsoleSite extends Construct {
  readonly distribution: cloudfront.Distribution;
  readonly userPool: cognito.UserPool;
  readonly client: cognito.UserPoolClient;
  readonly domain: cognito.UserPoolDomain;
  /** what the functions verify access tokens with (shared/sign-in/access-tokens.ts) */
  readonly issuer: string;
  readonly clientId: string;
  readonly url: string;

  constructor(scope: Construct, id: string, { api, stageName, accessLogs, signIn, mapStyle, freeBasemap }: ConsoleSiteProps) {
    super(scope, id);
    const stack = Stack.of(this);
    const basemaps: ConsoleBasemaps = { mapStyle: mapStyle ?? null, freeMapStyle: freeBasemap ? FREE_MAP_STYLE : null };
    const files = new s3.Bucket(this, 'Files', {
      blockPublicAccess: s3.BlockPublicAccess.BLOCK_ALL,
      enforceSSL: true,
      encryption: s3.BucketEncryption.S3_MANAGED,
      serverAccessLogsBucket: accessLogs,
      serverAccessLogsPrefix: 'console/',
      removalPolicy: RemovalPolicy.DESTROY,
      autoDeleteObjects: false,
    });

    this.userPool = new cognito.UserPool(this, 'People', {
      // People are made by `npm run admin -- user create --email` (AdminCreateUser), never sign themselves up.
      selfSignUpEnabled: false,
      signInAliases: { email: true },
      standardAttributes: { email: { required: true, mutable: true } },
      passwordPolicy: { minLength: 12, requireDigits: true, requireLowercase: true, requireUppercase: true, requireSymbols: true },
      mfa: cognito.Mfa.OPTIONAL,
      mfaSecondFactor: { sms: false, otp: true },
      accountRecovery: cognito.AccountRecovery.EMAIL_ONLY,
      featurePlan: cognito.FeaturePlan.ESSENTIALS,
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.domain = this.userPool.addDomain('ManagedLogin', {
      cognitoDomain: { domainPrefix: `fleet-console-${stack.account}`.slice(0, 63) },
      managedLoginVersion: cognito.ManagedLoginVersion.NEWER_MANAGED_LOGIN,
    });

    const rewrite = new cloudfront.Function(this, 'ConsoleRoutes', {
      runtime: cloudfront.FunctionRuntime.JS_2_0,
      comment: 'The console: config.json from the stack, its routes to the page',
      code: cloudfront.FunctionCode.fromInline(CONSOLE_ROUTES_CODE),
    });
    this.distribution = new cloudfront.Distribution(this, 'Distribution', {
      comment: 'Fleet tracking console and API',
      minimumProtocolVersion: cloudfront.SecurityPolicyProtocol.TLS_V1_2_2021,
      enableLogging: true,
      logBucket: accessLogs,
      logFilePrefix: 'cloudfront/',
      defaultBehavior: {
        origin: origins.S3BucketOrigin.withOriginAccessControl(files),
        viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
        responseHeadersPolicy: new cloudfront.ResponseHeadersPolicy(this, 'SecurityHeaders', {
          comment: 'The console: strict CSP, no sniffing, no referrer, no framing',
          securityHeadersBehavior: {
            contentSecurityPolicy: { contentSecurityPolicy: consoleCsp(basemaps), override: true },
            contentTypeOptions: { override: true },
            referrerPolicy: { referrerPolicy: cloudfront.HeadersReferrerPolicy.NO_REFERRER, override: true },
            frameOptions: { frameOption: cloudfront.HeadersFrameOption.DENY, override: true },
            strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
          },
        }),
        functionAssociations: [{ function: rewrite, eventType: cloudfront.FunctionEventType.VIEWER_REQUEST }],
      },
      additionalBehaviors: {
        // The API by its own name (restApiId), not api.url, which would tie the distribution to the stage's deployment.
        'api/*': {
          origin: new origins.HttpOrigin(`${api.restApiId}.execute-api.${stack.region}.${stack.urlSuffix}`, {
            originPath: `/${stageName}`,
          }),
          viewerProtocolPolicy: cloudfront.ViewerProtocolPolicy.HTTPS_ONLY,
          allowedMethods: cloudfront.AllowedMethods.ALLOW_ALL,
          cachePolicy: cloudfront.CachePolicy.CACHING_DISABLED,
          originRequestPolicy: cloudfront.OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
        },
      },
    });
    this.url = `https://${this.distribution.distributionDomainName}/console/`;

    this.client = this.userPool.addClient('Console', {
      userPoolClientName: CONSOLE_CLIENT_ID,
      generateSecret: false,
      authFlows: {},
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [cognito.OAuthScope.OPENID, cognito.OAuthScope.EMAIL],
        callbackUrls: [`https://${this.distribution.distributionDomainName}/console/callback`],
        logoutUrls: [this.url],
      },
      supportedIdentityProviders: [cognito.UserPoolClientIdentityProvider.COGNITO],
      accessTokenValidity: Duration.hours(1),
      idTokenValidity: Duration.hours(1),
      preventUserExistenceErrors: true,
    });
    new cognito.CfnManagedLoginBranding(this, 'ManagedLoginBranding', {
      userPoolId: this.userPool.userPoolId,
      clientId: this.client.userPoolClientId,
      useCognitoProvidedValues: true,
    });

    this.issuer = signIn?.issuer ?? `https://cognito-idp.${stack.region}.${stack.urlSuffix}/${this.userPool.userPoolId}`;
    this.clientId = signIn?.clientId ?? this.client.userPoolClientId;
    const config = { issuer: this.issuer, clientId: this.clientId, scopes: CONSOLE_SCOPES, ...basemaps };
    // The console's files when built (`npm run build:console`), and its config from this stack's values, in one upload.
    new deployment.BucketDeployment(this, 'Upload', {
      sources: [
        ...(existsSync(CONSOLE_DIST) ? [deployment.Source.asset(CONSOLE_DIST)] : []),
        deployment.Source.jsonData('config.json', config),
      ],
      destinationBucket: files,
      destinationKeyPrefix: 'console/',
      distribution: this.distribution,
      distributionPaths: ['/console/*'],
    });
  }
}

/** The viewer-request function: /console to /console/, and a route (a path naming no file type) to the page. */
const CONSOLE_ROUTES_CODE = [
  'function handler(event) {',
  '  var request = event.request;',
  "  if (request.uri === '/console') {",
  "    return { statusCode: 308, statusDescription: 'Permanent Redirect', headers: { location: { value: '/console/' } } };",
  '  }',
  "  if (request.uri.indexOf('/console/') === 0 && !/\\.[A-Za-z0-9]+$/.test(request.uri)) request.uri = '/console/index.html';",
  '  return request;',
  '}',
].join('\n');
