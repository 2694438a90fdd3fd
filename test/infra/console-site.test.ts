/** The console's deployment (infra/api/console-site.ts), synthesized alone beside a one-method API. */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSite, type ConsoleSiteProps } from '../../infra/api/console-site.ts';
import { consoleCsp } from '../../shared/console/site.ts';

let template: Template;

function consoleTemplate(basemaps: Pick<ConsoleSiteProps, 'mapStyle' | 'freeBasemap'> = {}): Template {
  const stack = new Stack(new App(), 'ConsoleTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const api = new apigateway.RestApi(stack, 'Api', { deployOptions: { stageName: 'v1' } });
  api.root.addResource('api').addMethod('GET', new apigateway.MockIntegration());
  new ConsoleSite(stack, 'Console', { api, stageName: 'v1', accessLogs: new s3.Bucket(stack, 'Logs'), ...basemaps });
  return Template.fromStack(stack);
}

const cspOf = (synthesized: Template): string =>
  Object.values(synthesized.findResources('AWS::CloudFront::ResponseHeadersPolicy'))[0]?.Properties.ResponseHeadersPolicyConfig
    .SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy;

beforeAll(() => {
  template = consoleTemplate();
});

describe('the console behind CloudFront', () => {
  it('reads its files from a private bucket through origin access control, never a public one', () => {
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::CloudFront::OriginAccessControl', {
      OriginAccessControlConfig: Match.objectLike({ OriginAccessControlOriginType: 's3', SigningBehavior: 'always' }),
    });
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: {
        BlockPublicAcls: true,
        BlockPublicPolicy: true,
        IgnorePublicAcls: true,
        RestrictPublicBuckets: true,
      },
    });
  });

  it('serves the API at /api/* of the same distribution, uncached, every method, from the stage', () => {
    template.hasResourceProperties('AWS::CloudFront::Distribution', {
      DistributionConfig: Match.objectLike({
        CacheBehaviors: [
          Match.objectLike({
            PathPattern: 'api/*',
            AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
            CachePolicyId: '4135ea2d-6df8-44a3-9df3-4b5a84be39ad',
            ViewerProtocolPolicy: 'https-only',
          }),
        ],
        Origins: Match.arrayWith([
          Match.objectLike({ OriginPath: '/v1', CustomOriginConfig: Match.objectLike({ OriginProtocolPolicy: 'https-only' }) }),
        ]),
      }),
    });
  });

  it('answers with the strict CSP and the security headers', () => {
    template.hasResourceProperties('AWS::CloudFront::ResponseHeadersPolicy', {
      ResponseHeadersPolicyConfig: Match.objectLike({
        SecurityHeadersConfig: Match.objectLike({
          ContentSecurityPolicy: { ContentSecurityPolicy: consoleCsp(), Override: true },
          ContentTypeOptions: { Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      }),
    });
    expect(cspOf(template)).not.toMatch(/unsafe-inline|unsafe-eval|\*|https?:/);
  });

  it("lets the map reach the configured style's origin, and the free style's when offered, nothing else", () => {
    // Act
    const synthesized = consoleTemplate({
      mapStyle: 'https://maps.geo.eu-west-1.amazonaws.com/v2/styles/Standard/descriptor?key=v1.public.abc',
      freeBasemap: true,
    });

    // Assess
    const origins = 'https://maps.geo.eu-west-1.amazonaws.com https://tiles.openfreemap.org';
    expect(cspOf(synthesized)).toContain(`connect-src 'self' ${origins};`);
    expect(cspOf(synthesized)).toContain(`img-src 'self' data: blob: ${origins};`);
    expect(cspOf(synthesized).replaceAll(` ${origins}`, '')).toBe(consoleCsp());
  });
});

describe('people signing in with Cognito', () => {
  it('has a pool no one signs up to alone, with managed login', () => {
    template.hasResourceProperties('AWS::Cognito::UserPool', {
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      UsernameAttributes: ['email'],
    });
    template.hasResourceProperties('AWS::Cognito::UserPoolDomain', { ManagedLoginVersion: 2 });
    template.resourceCountIs('AWS::Cognito::ManagedLoginBranding', 1);
  });

  it('has a public client for the authorization code with PKCE, back to the console only', () => {
    template.hasResourceProperties('AWS::Cognito::UserPoolClient', {
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email'],
      CallbackURLs: [{ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.anyValue(), 'DomainName'] }, '/console/callback']] }],
      LogoutURLs: [{ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [Match.anyValue(), 'DomainName'] }, '/console/']] }],
    });
  });

  it("uploads the console's config naming the pool's issuer and the client", () => {
    const [upload] = Object.values(template.findResources('Custom::CDKBucketDeployment'));
    // The deploy-time values ride as markers the upload fills in: the pool's id and the client's.
    const [pool] = Object.keys(template.findResources('AWS::Cognito::UserPool'));
    const [client] = Object.keys(template.findResources('AWS::Cognito::UserPoolClient'));
    // config.json is the last source (the built files come first when console/dist/ exists)
    const markers = upload?.Properties.SourceMarkers.at(-1);
    expect(Object.values(markers)).toEqual([{ Ref: 'AWS::URLSuffix' }, { Ref: pool }, { Ref: client }]);
    expect(upload?.Properties).toMatchObject({ DestinationBucketKeyPrefix: 'console/', DistributionPaths: ['/console/*'] });
  });
});
