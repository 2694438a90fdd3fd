/** The console's deployment (infra/api/console-site.ts), synthesized alone beside a one-method API. */
import { App, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import * as s3 from 'aws-cdk-lib/aws-s3';
import { beforeAll, describe, expect, it } from 'vitest';
import { ConsoleSite } from '../../infra/api/console-site.ts';
import { CONSOLE_CSP } from '../../shared/console/site.ts';

let template: Template;

beforeAll(() => {
  const stack = new Stack(new App(), 'ConsoleTest', { env: { account: '123456789012', region: 'eu-west-1' } });
  const api = new apigateway.RestApi(stack, 'Api', { deployOptions: { stageName: 'v1' } });
  api.root.addResource('api').addMethod('GET', new apigateway.MockIntegration());
  new ConsoleSite(stack, 'Console', { api, stageName: 'v1', accessLogs: new s3.Bucket(stack, 'Logs') });
  template = Template.fromStack(stack);
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
          ContentSecurityPolicy: { ContentSecurityPolicy: CONSOLE_CSP, Override: true },
          ContentTypeOptions: { Override: true },
          ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: true },
          FrameOptions: { FrameOption: 'DENY', Override: true },
        }),
      }),
    });
    expect(CONSOLE_CSP).not.toMatch(/unsafe-inline|unsafe-eval|\*/);
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
