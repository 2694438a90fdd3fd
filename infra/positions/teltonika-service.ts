import { Annotations, Aws, CfnOutput, Duration, IgnoreMode } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import * as iam from 'aws-cdk-lib/aws-iam';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as logs from 'aws-cdk-lib/aws-logs';
import * as sfn from 'aws-cdk-lib/aws-stepfunctions';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { env } from '../../shared/config.ts';
import { metricNames } from '../../shared/metric-names.ts';
import { repositoryRoot } from '../api/operation-functions.ts';
import { serviceMetric } from '../monitoring/service-metric.ts';
import { serviceStack } from '../service-stack.ts';

/**
 * The CDK context value listing the source addresses Teltonika units may connect from, comma-separated CIDRs
 * (`cdk deploy -c teltonikaAllowedCidrs=203.0.113.0/24,198.51.100.7/32`: the mobile operator's APN range, a private
 * APN's NAT; `0.0.0.0/0` only when written out). Without it the device ports admit no source and synth warns.
 */
export const TELTONIKA_ALLOWED_CIDRS_CONTEXT = 'teltonikaAllowedCidrs';

/**
 * The CDK context value naming an ACM certificate (its ARN) for the TLS port: the load balancer terminates TLS
 * with it and passes the plain bytes to the listener. Without it there is no TLS port.
 */
export const TELTONIKA_TLS_CERTIFICATE_CONTEXT = 'teltonikaTlsCertificateArn';

/**
 * The CDK context values of the listener's footprint (docs/devices.md, "The listener's footprint"):
 * `teltonikaListenerMode` is `single-task` (the default: one task with a public address, no load balancer) or
 * `load-balanced` (two to ten tasks behind a Network Load Balancer); in single-task mode the task's address is kept
 * in an A record, `teltonikaHostName`, of the Route 53 zone `teltonikaHostedZoneId`.
 */
export const TELTONIKA_CONTEXT = {
  mode: 'teltonikaListenerMode',
  hostedZoneId: 'teltonikaHostedZoneId',
  hostName: 'teltonikaHostName',
} as const;

export type ListenerMode = 'single-task' | 'load-balanced';
const LISTENER_MODES: readonly ListenerMode[] = ['single-task', 'load-balanced'];
const DEFAULT_LISTENER_MODE: ListenerMode = 'single-task';

/** Where a single task's address is published: an A record the task's start rewrites. */
export interface PublishedName {
  hostedZoneId: string;
  hostName: string;
}

export interface ListenerSettings {
  mode: ListenerMode;
  /** single-task only; without it the address is published nowhere (synth warns) */
  publishedName?: PublishedName;
}

/** The seconds a resolver may keep the single task's address: a replaced task is found again within about a minute. */
const PUBLISHED_NAME_TTL_S = 60;

/**
 * Sized from `npm run bench -- devices` (docs/cost.md, "Device entry points"): one 0.25 vCPU task takes far more
 * than the connections its target keeps it at, so two tasks (one per zone, for availability) carry a large fleet.
 */
export const teltonikaSettings = {
  port: 5027,
  /** TLS, terminated by the load balancer, when a certificate is given */
  tlsPort: 5028,
  cpu: 256,
  memoryMiB: 512,
  /** load-balanced: one task per zone at least, for availability; single-task runs one */
  minTasks: 2,
  maxTasks: 10,
  cpuTargetPercent: 50,
  /** open device connections per task the scaling keeps to (each unit keeps one open) */
  connectionsPerTask: 5000,
} as const;

/** The listener's footprint from the cdk context, checked: a typo fails the synth rather than deploying a default. */
export function listenerSettingsOf(scope: Construct): ListenerSettings {
  const context = (key: string): string | undefined => scope.node.tryGetContext(key);
  const mode = (context(TELTONIKA_CONTEXT.mode) ?? DEFAULT_LISTENER_MODE) as ListenerMode;
  if (!LISTENER_MODES.includes(mode)) throw new Error(`${TELTONIKA_CONTEXT.mode} must be ${LISTENER_MODES.join(' or ')}`);
  const hostedZoneId = context(TELTONIKA_CONTEXT.hostedZoneId);
  const hostName = context(TELTONIKA_CONTEXT.hostName);
  if (mode === 'load-balanced') {
    if (hostedZoneId !== undefined || hostName !== undefined)
      throw new Error(
        `${TELTONIKA_CONTEXT.hostedZoneId} and ${TELTONIKA_CONTEXT.hostName} apply to single-task mode: ` +
          'the load balancer has a name of its own',
      );
    return { mode };
  }
  if (context(TELTONIKA_TLS_CERTIFICATE_CONTEXT) !== undefined)
    throw new Error(`${TELTONIKA_TLS_CERTIFICATE_CONTEXT} needs ${TELTONIKA_CONTEXT.mode}=load-balanced: the load balancer terminates TLS`);
  if (hostedZoneId === undefined && hostName === undefined) return { mode };
  if (hostedZoneId === undefined || !/^Z[A-Z0-9]{1,31}$/.test(hostedZoneId))
    throw new Error(`${TELTONIKA_CONTEXT.hostedZoneId} must be a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ`);
  if (hostName === undefined || !/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/.test(hostName))
    throw new Error(`${TELTONIKA_CONTEXT.hostName} must be a lower-case DNS name in that zone, such as units.example.com`);
  return { mode, publishedName: { hostedZoneId, hostName } };
}

/** A container health check: the device port accepts a connection on the task itself. */
const portAcceptsCheck = (port: number): ecs.HealthCheck => ({
  command: [
    'CMD',
    'node',
    '-e',
    `require('node:net').connect(${port}, '127.0.0.1').on('connect', () => process.exit(0)).on('error', () => process.exit(1))`,
  ],
  interval: Duration.seconds(30),
  timeout: Duration.seconds(5),
  retries: 3,
  startPeriod: Duration.seconds(30),
});

export interface TeltonikaServiceProps {
  stream: kinesis.IStream;
  table: dynamodb.ITableV2;
}

/**
 * Teltonika units → the listener (shared/devices/teltonika/service.ts) on ECS Fargate, arm64 → the positions stream. The
 * image is built from this repository by `cdk deploy`. Two footprints (`teltonikaListenerMode`):
 * - `single-task`: one task with a public address, the source addresses admitted on its own security group, the
 *   address kept in a Route 53 A record each time a task starts (an EventBridge rule on the cluster's task starts runs
 *   an express state machine: the task's network interface, its public address, an UPSERT);
 * - `load-balanced`: a Network Load Balancer (TCP :5027, and TLS :5028 with a certificate; PROXY protocol v2 to the
 *   targets, so the listener sees each unit's address) in front of two to ten tasks scaled on CPU and connections.
 */
export class TeltonikaService extends Construct {
  readonly service: ecs.FargateService;
  readonly settings: ListenerSettings;
  /** load-balanced only: the balancer's targets, whose healthy count the monitoring watches */
  readonly targetGroup?: elbv2.NetworkTargetGroup;

  constructor(scope: Construct, id: string, { stream, table }: TeltonikaServiceProps) {
    super(scope, id);
    this.settings = listenerSettingsOf(this);
    const loadBalanced = this.settings.mode === 'load-balanced';
    const { port } = teltonikaSettings;
    // Public subnets only: tasks reach Kinesis, DynamoDB, ECR and CloudWatch through their public address, which costs
    // far less than NAT gateways or interface endpoints; nothing reaches a task but the device port from where it is admitted.
    const vpc = new ec2.Vpc(this, 'Vpc', {
      maxAzs: 2,
      natGateways: 0,
      subnetConfiguration: [{ name: 'public', subnetType: ec2.SubnetType.PUBLIC }],
    });
    vpc.addFlowLog('RejectedFlows', {
      trafficType: ec2.FlowLogTrafficType.REJECT,
      destination: ec2.FlowLogDestination.toCloudWatchLogs(
        new logs.LogGroup(this, 'FlowLogs', { retention: logs.RetentionDays.ONE_MONTH }),
      ),
    });

    const certificateArn = this.node.tryGetContext(TELTONIKA_TLS_CERTIFICATE_CONTEXT) as string | undefined;
    const devicePorts = certificateArn ? [port, teltonikaSettings.tlsPort] : [port];
    const taskGroup = new ec2.SecurityGroup(this, 'TaskSecurityGroup', {
      vpc,
      description: loadBalanced
        ? 'Teltonika listener tasks: the device port from the load balancer only'
        : 'Teltonika listener task: the device port from the allowed source addresses',
    });
    // Load-balanced, the units reach the balancer and only the balancer reaches the tasks; single-task, they reach the task.
    const balancerGroup = loadBalanced
      ? new ec2.SecurityGroup(this, 'BalancerSecurityGroup', {
          vpc,
          description: 'Teltonika units: TCP to the device port from the allowed source addresses',
          allowAllOutbound: false,
        })
      : undefined;
    this.admitUnits(balancerGroup ?? taskGroup, devicePorts);
    if (balancerGroup) {
      taskGroup.addIngressRule(balancerGroup, ec2.Port.tcp(port), 'device connections and health checks from the load balancer');
      balancerGroup.addEgressRule(taskGroup, ec2.Port.tcp(port), 'to the listener tasks');
    }

    const cluster = new ecs.Cluster(this, 'Cluster', { vpc, containerInsightsV2: ecs.ContainerInsights.DISABLED });
    const task = new ecs.FargateTaskDefinition(this, 'Task', {
      cpu: teltonikaSettings.cpu,
      memoryLimitMiB: teltonikaSettings.memoryMiB,
      runtimePlatform: { cpuArchitecture: ecs.CpuArchitecture.ARM64, operatingSystemFamily: ecs.OperatingSystemFamily.LINUX },
    });
    task.addContainer('listener', {
      image: ecs.ContainerImage.fromAsset(repositoryRoot, {
        file: 'infra/positions/teltonika/Dockerfile',
        platform: Platform.LINUX_ARM64,
        ignoreMode: IgnoreMode.DOCKER,
        // Only what the image build reads: synth stays fast and the image changes only when the listener's code does.
        exclude: [
          '*',
          '!package.json',
          '!package-lock.json',
          '!shared',
          '!infra',
          'infra/*',
          '!infra/positions',
          'infra/positions/*',
          '!infra/positions/teltonika',
        ],
      }),
      portMappings: [{ containerPort: port, protocol: ecs.Protocol.TCP }],
      environment: {
        [env.positionsStreamName]: stream.streamName,
        [env.tableName]: table.tableName,
        DEVICE_TCP_PORT: String(port),
        // only the balancer sends a PROXY header; a single task sees each unit's own address
        [env.teltonikaProxyProtocol]: String(loadBalanced),
      },
      // Without a balancer's health checks, ECS replaces a task whose port stops accepting.
      healthCheck: loadBalanced ? undefined : portAcceptsCheck(port),
      logging: ecs.LogDrivers.awsLogs({
        streamPrefix: 'teltonika',
        logGroup: new logs.LogGroup(this, 'Logs', { retention: logs.RetentionDays.ONE_MONTH }),
      }),
    });
    // The Kinesis sink calls PutRecords only (grantWrite would add PutRecord and ListShards).
    stream.grant(task.taskRole, 'kinesis:PutRecords');
    table.grant(task.taskRole, 'dynamodb:GetItem');

    this.service = new ecs.FargateService(this, 'Service', {
      cluster,
      taskDefinition: task,
      desiredCount: loadBalanced ? teltonikaSettings.minTasks : 1,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      securityGroups: [taskGroup],
      circuitBreaker: { rollback: true },
      // single-task too: a deployment starts the new task (and publishes its address) before it stops the old one
      minHealthyPercent: 100,
      maxHealthyPercent: 200,
    });

    let host: string;
    if (loadBalanced) {
      const loadBalancer = this.loadBalance(vpc, balancerGroup as ec2.SecurityGroup, certificateArn);
      this.targetGroup = loadBalancer.targetGroup;
      host = loadBalancer.dnsName;
    } else if (this.settings.publishedName) {
      this.publishAddress(cluster, this.settings.publishedName);
      host = this.settings.publishedName.hostName;
    } else {
      Annotations.of(this).addWarningV2(
        'fleet:teltonika-unpublished',
        "the Teltonika task's address is published nowhere and changes with each task: " +
          `set -c ${TELTONIKA_CONTEXT.hostedZoneId}=<zone id> -c ${TELTONIKA_CONTEXT.hostName}=<name in it>, ` +
          `or -c ${TELTONIKA_CONTEXT.mode}=load-balanced`,
      );
      host = `not published: set ${TELTONIKA_CONTEXT.hostedZoneId} and ${TELTONIKA_CONTEXT.hostName} (docs/devices.md)`;
    }

    const tlsNote = certificateArn ? `, or TLS on ${teltonikaSettings.tlsPort}` : '';
    new CfnOutput(serviceStack(scope), 'TeltonikaHost', {
      value: host,
      description: `Teltonika units: server domain; port ${port}, protocol TCP${tlsNote} (docs/devices.md)`,
    });
  }

  /** The Network Load Balancer in front of the tasks, its listeners, and the tasks' scaling. */
  private loadBalance(vpc: ec2.IVpc, balancerGroup: ec2.SecurityGroup, certificateArn: string | undefined) {
    const { port } = teltonikaSettings;
    const loadBalancer = new elbv2.NetworkLoadBalancer(this, 'LoadBalancer', {
      vpc,
      internetFacing: true,
      securityGroups: [balancerGroup],
      crossZoneEnabled: true,
    });
    const listener = loadBalancer.addListener('Devices', { port, protocol: elbv2.Protocol.TCP });
    const targetGroup = listener.addTargets('Listener', {
      port,
      protocol: elbv2.Protocol.TCP,
      targets: [this.service],
      // A unit whose task is stopped reconnects to another and resends what was not acknowledged.
      deregistrationDelay: Duration.seconds(30),
      healthCheck: { protocol: elbv2.Protocol.TCP, interval: Duration.seconds(30) },
    });
    targetGroup.setAttribute('deregistration_delay.connection_termination.enabled', 'true');
    // Every connection reaches a task from the balancer's address: the header names the unit's, which the listener's
    // per-source limits count by (only the balancer can reach a task, so no one else can send a header).
    targetGroup.setAttribute('proxy_protocol_v2.enabled', 'true');
    if (certificateArn) {
      loadBalancer.addListener('DevicesTls', {
        port: teltonikaSettings.tlsPort,
        protocol: elbv2.Protocol.TLS,
        certificates: [elbv2.ListenerCertificate.fromArn(certificateArn)],
        sslPolicy: elbv2.SslPolicy.RECOMMENDED_TLS,
        defaultTargetGroups: [targetGroup],
      });
    }

    const scaling = this.service.autoScaleTaskCount({ minCapacity: teltonikaSettings.minTasks, maxCapacity: teltonikaSettings.maxTasks });
    scaling.scaleOnCpuUtilization('Cpu', { targetUtilizationPercent: teltonikaSettings.cpuTargetPercent });
    scaling.scaleToTrackCustomMetric('Connections', {
      metric: this.metric(metricNames.teltonikaOpenConnections, 'Average', Duration.minutes(1)),
      targetValue: teltonikaSettings.connectionsPerTask,
    });
    return { targetGroup, dnsName: loadBalancer.loadBalancerDnsName };
  }

  /**
   * Keeps the single task's public address in the A record: each task on the cluster that is running and healthy
   * runs an express state machine that reads the task's network interface and UPSERTs the record (the newest task
   * wins, and a deployment starts the new task and waits for it to be healthy before it stops the old one). The task
   * itself calls nothing but the stream and the table.
   */
  private publishAddress(cluster: ecs.ICluster, { hostedZoneId, hostName }: PublishedName): void {
    const retry = [{ ErrorEquals: ['States.ALL'], IntervalSeconds: 5, MaxAttempts: 3, BackoffRate: 2 }];
    const findAddress = new sfn.CustomState(this, 'FindTaskAddress', {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Aws.PARTITION}:states:::aws-sdk:ec2:describeNetworkInterfaces`,
        Arguments: {
          NetworkInterfaceIds: "{% [$states.input.detail.attachments.details[name = 'networkInterfaceId'].value] %}",
        },
        Output: { address: '{% $states.result.NetworkInterfaces[0].Association.PublicIp %}' },
        Retry: retry,
      },
    });
    const upsert = new sfn.CustomState(this, 'PublishTaskAddress', {
      stateJson: {
        Type: 'Task',
        Resource: `arn:${Aws.PARTITION}:states:::aws-sdk:route53:changeResourceRecordSets`,
        Arguments: {
          HostedZoneId: hostedZoneId,
          ChangeBatch: {
            Comment: 'the Teltonika listener task started',
            Changes: [
              {
                Action: 'UPSERT',
                ResourceRecordSet: {
                  Name: hostName,
                  Type: 'A',
                  Ttl: PUBLISHED_NAME_TTL_S,
                  ResourceRecords: [{ Value: '{% $states.input.address %}' }],
                },
              },
            ],
          },
        },
        Retry: retry,
      },
    });
    const publisher = new sfn.StateMachine(this, 'AddressPublisher', {
      stateMachineType: sfn.StateMachineType.EXPRESS,
      queryLanguage: sfn.QueryLanguage.JSONATA,
      definitionBody: sfn.DefinitionBody.fromChainable(findAddress.next(upsert)),
      timeout: Duration.minutes(1),
      tracingEnabled: true,
      logs: {
        destination: new logs.LogGroup(this, 'AddressPublisherLogs', { retention: logs.RetentionDays.ONE_MONTH }),
        level: sfn.LogLevel.ALL,
      },
    });
    // DescribeNetworkInterfaces has no resource-level permissions; the record is the one name, type and action.
    publisher.addToRolePolicy(new iam.PolicyStatement({ actions: ['ec2:DescribeNetworkInterfaces'], resources: ['*'] }));
    publisher.addToRolePolicy(
      new iam.PolicyStatement({
        actions: ['route53:ChangeResourceRecordSets'],
        resources: [`arn:${Aws.PARTITION}:route53:::hostedzone/${hostedZoneId}`],
        conditions: {
          'ForAllValues:StringEquals': {
            'route53:ChangeResourceRecordSetsNormalizedRecordNames': [hostName],
            'route53:ChangeResourceRecordSetsRecordTypes': ['A'],
            'route53:ChangeResourceRecordSetsActions': ['UPSERT'],
          },
        },
      }),
    );
    NagSuppressions.addResourceSuppressions(
      publisher,
      [
        {
          id: 'AwsSolutions-IAM5',
          reason: 'ec2:DescribeNetworkInterfaces supports no resource-level permissions; it only reads the started task’s address.',
          appliesTo: ['Resource::*'],
        },
      ],
      true,
    );
    new events.Rule(this, 'TaskStarted', {
      description: "A Teltonika listener task is running and healthy: publish its address in the units' A record",
      eventPattern: {
        source: ['aws.ecs'],
        detailType: ['ECS Task State Change'],
        // healthy: its port accepts (the container health check), so an old task's health flapping never wins the record
        detail: { clusterArn: [cluster.clusterArn], lastStatus: ['RUNNING'], desiredStatus: ['RUNNING'], healthStatus: ['HEALTHY'] },
      },
      targets: [new targets.SfnStateMachine(publisher)],
    });
  }

  /** The device ports open to the source addresses of the deployment setting. */
  private admitUnits(group: ec2.SecurityGroup, devicePorts: readonly number[]): void {
    const allowed = this.allowedSources();
    for (const cidr of allowed)
      for (const devicePort of devicePorts)
        group.addIngressRule(ec2.Peer.ipv4(cidr), ec2.Port.tcp(devicePort), `Teltonika units from ${cidr}`);
    if (allowed.includes('0.0.0.0/0'))
      NagSuppressions.addResourceSuppressions(group, [
        {
          id: 'AwsSolutions-EC23',
          reason:
            `${TELTONIKA_ALLOWED_CIDRS_CONTEXT} says 0.0.0.0/0: units on public mobile data have no fixed address; the listener ` +
            'answers only the handshake of a registered IMEI and holds refusals past each source address budget ' +
            '(docs/devices.md, "Security").',
        },
      ]);
  }

  /** A listener metric as the tasks publish it (EMF, summed over tasks unless said otherwise). */
  metric(metricName: string, statistic = 'Sum', period = Duration.minutes(5)): cloudwatch.Metric {
    return serviceMetric(metricName, { statistic, period });
  }

  private allowedSources(): string[] {
    const value = this.node.tryGetContext(TELTONIKA_ALLOWED_CIDRS_CONTEXT) as string | undefined;
    const cidrs = (value ?? '')
      .split(',')
      .map((cidr) => cidr.trim())
      .filter((cidr) => cidr !== '');
    if (cidrs.length > 0) {
      const bad = cidrs.find((cidr) => !/^\d{1,3}(\.\d{1,3}){3}\/\d{1,2}$/.test(cidr));
      if (bad) throw new Error(`${TELTONIKA_ALLOWED_CIDRS_CONTEXT}: ${bad} is not an IPv4 CIDR such as 203.0.113.0/24`);
      return cidrs;
    }
    Annotations.of(this).addWarningV2(
      'fleet:teltonika-closed',
      `the Teltonika port admits no source: set -c ${TELTONIKA_ALLOWED_CIDRS_CONTEXT}=<cidr>,<cidr> (0.0.0.0/0 for every address)`,
    );
    return [];
  }
}
