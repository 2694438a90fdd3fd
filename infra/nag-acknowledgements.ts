import type { Stack } from 'aws-cdk-lib';
import { NagSuppressions } from 'cdk-nag';

/**
 * cdk-nag AwsSolutions findings this design accepts, each with its reason. The synth test fails on any
 * finding not listed here, so a new one is either fixed or argued for in this file.
 */
export function acknowledgeNagFindings(stack: Stack): void {
  NagSuppressions.addStackSuppressions(
    stack,
    [
      {
        id: 'AwsSolutions-APIG2',
        reason: "Every function validates its request with its valibot schema, so errors carry the spec's envelope and messages.",
      },
      { id: 'AwsSolutions-APIG3', reason: 'WAF is an account-level, paid choice left to the operator; the stage has throttling limits.' },
      {
        id: 'AwsSolutions-APIG4',
        reason:
          "The spec's api_key (query, body or X-Api-Key) is checked by the apiKeyAuth middleware; an authorizer cannot read bodies. " +
          'Device entry points check their device token (path or Bearer) in their own chain, with the same hashing and ≤ 60 s cache.',
      },
      { id: 'AwsSolutions-COG4', reason: "Integrators authenticate with the spec's API keys, not Cognito users." },
      {
        id: 'AwsSolutions-IAM4',
        reason: "AWS's Lambda basic execution and API Gateway CloudWatch push policies only allow writing logs.",
        appliesTo: [
          'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSLambdaBasicExecutionRole',
          'Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs',
        ],
      },
      {
        id: 'AwsSolutions-IAM5',
        reason:
          "CDK grants scoped to this table's indexes and this bucket's objects (in a nested stack their ARNs are parameters), " +
          'and X-Ray, which has no resource-level permissions.',
        appliesTo: [
          { regex: '/^Resource::<(Table[A-Za-z0-9]+\\.Arn|referenceto[A-Za-z0-9]*Table[A-Za-z0-9]+Arn)>\\/index\\/\\*$/g' },
          { regex: '/^Resource::<(Bucket[A-Za-z0-9]+\\.Arn|referenceto[A-Za-z0-9]*Bucket[A-Za-z0-9]+Arn)>\\/(\\*|positions\\/\\*)$/g' },
          { regex: '/^Action::s3:(Abort|DeleteObject|GetBucket|GetObject|List|PutObject)\\*?.*$/g' },
          'Resource::*',
        ],
      },
      {
        id: 'AwsSolutions-SNS2',
        reason:
          'The alarm topic carries alarm names and states only; CloudWatch cannot publish to a topic under the AWS-managed SNS key, ' +
          'and a customer key costs more than the data is worth.',
      },
      {
        id: 'AwsSolutions-ECS2',
        reason: 'The Teltonika task gets only the names of the stream and the table and its port as environment variables; no secrets.',
      },
      {
        id: 'AwsSolutions-ECS4',
        reason:
          "Container Insights would bill per task metric; the service's CPU and memory come free in AWS/ECS and the listener " +
          'publishes its own connection and record counts (on the dashboard).',
      },
      {
        id: 'AwsSolutions-ELB2',
        reason:
          'Network Load Balancer access logs cover TLS listeners only; the Teltonika TCP listener is logged by the service ' +
          '(refused handshakes and packets, with the IMEI) and its rejected flows by the VPC flow log.',
      },
      {
        id: 'AwsSolutions-SMG4',
        reason:
          'The cursor key only seals paging cursors (docs/paging.md): rotating it ends the walks in progress, which clients restart; ' +
          'an operator may still rotate it by hand.',
      },
      { id: 'AwsSolutions-SQS3', reason: 'FailedBatches is itself the dead-letter queue of the positions stream.' },
      {
        id: 'AwsSolutions-COG8',
        reason:
          "Cognito's threat protection needs the Plus feature plan, billed per active person; the console's people are few, " +
          'made by an administrator (no self sign-up), with TOTP available as a second factor.',
      },
      {
        id: 'AwsSolutions-CFR4',
        reason:
          "The distribution answers on CloudFront's own *.cloudfront.net certificate, which sets no minimum protocol; with a custom " +
          'domain and its ACM certificate the minimum (TLSv1.2_2021, set in infra/api/console-site.ts) applies.',
      },
    ],
    true,
  );
  // CDK's own upload function (the console's files and config.json): its runtime and its grants on the asset bucket are CDK's.
  NagSuppressions.addResourceSuppressionsByPath(
    stack,
    `/${stack.node.path}/Custom::CDKBucketDeployment8693BB64968944B69AAFB0CC9EB8756C`,
    [
      { id: 'AwsSolutions-L1', reason: "CDK's BucketDeployment provider: CDK chooses and updates its runtime." },
      {
        id: 'AwsSolutions-IAM5',
        reason: "CDK's BucketDeployment provider reads the CDK asset bucket's objects and writes the console bucket's, by prefix.",
      },
    ],
    true,
  );
}
