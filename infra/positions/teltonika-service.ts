import { Annotations, CfnOutput, Duration, IgnoreMode } from 'aws-cdk-lib';
import type * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as ec2 from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import * as ecs from 'aws-cdk-lib/aws-ecs';
import * as elbv2 from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import type * as kinesis from 'aws-cdk-lib/aws-kinesis';
import * as logs from 'aws-cdk-lib/aws-logs';
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
 * Sized from `npm run bench -- devices` (docs/cost.md, "Device entry points"): one 0.25 vCPU task takes far more
 * than the connections its target keeps it at, so two tasks (one per zone, for availability) carry a large fleet.
 */
export const teltonikaSettings = {
  port: 5027,
  /** TLS, terminated by the load balancer, when a certificate is given */
  tlsPort: 5028,
  cpu: 256,
  memoryMiB: 512,
  minTasks: 2,
  maxTasks: 10,
  cpuTargetPercent: 50,
  /** open device connections per task the scaling keeps to (each unit keeps one open) */
  connectionsPerTask: 5000,
} as const;

export interface TeltonikaServiceProps {
  stream: kinesis.IStream;
  table: dynamodb.ITableV2;
}

/**
 * Teltonika units → Network Load Balancer (TCP :5027, and TLS :5028 with a certificate; source addresses from the
 * deployment setting; PROXY protocol v2 to the targets, so the listener sees each unit's address) → the listener
 * (shared/devices/teltonika/service.ts) on ECS Fargate, arm64 → the positions stream. The image is built from this
 * repository by `cdk deploy`.
 */
export class TeltonikaService extends Construct {
  readonly service: ecs.FargateService;
  readonly loadBalancer: elbv2.NetworkLoadBalancer;
  readonly targetGroup: elbv2.NetworkTargetGroup;

  constructor(scope: Construct, id: string, { stream, table }: TeltonikaServiceProps) {
    super(scope, id);
    const { port } = teltonikaSettings;
    // Public subnets only: tasks reach Kinesis, DynamoDB, ECR and CloudWatch through their public address, which costs
    // far less than NAT gateways or interface endpoints; nothing reaches a task except through the load balancer.
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

    const balancerGroup = new ec2.SecurityGroup(this, 'BalancerSecurityGroup', {
      vpc,
      description: 'Teltonika units: TCP to the device port from the allowed source addresses',
      allowAllOutbound: false,
    });
    const allowed = this.allowedSources();
    const certificateArn = this.node.tryGetContext(TELTONIKA_TLS_CERTIFICATE_CONTEXT) as string | undefined;
    const devicePorts = certificateArn ? [port, teltonikaSettings.tlsPort] : [port];
    for (const cidr of allowed)
      for (const devicePort of devicePorts)
        balancerGroup.addIngressRule(ec2.Peer.ipv4(cidr), ec2.Port.tcp(devicePort), `Teltonika units from ${cidr}`);
    if (allowed.includes('0.0.0.0/0'))
      NagSuppressions.addResourceSuppressions(balancerGroup, [
        {
          id: 'AwsSolutions-EC23',
          reason:
            `${TELTONIKA_ALLOWED_CIDRS_CONTEXT} says 0.0.0.0/0: units on public mobile data have no fixed address; the listener ` +
            'answers only the handshake of a registered IMEI and holds refusals past each source address budget ' +
            '(docs/devices.md, "Security").',
        },
      ]);

    const taskGroup = new ec2.SecurityGroup(this, 'TaskSecurityGroup', {
      vpc,
      description: 'Teltonika listener tasks: the device port from the load balancer only',
    });
    taskGroup.addIngressRule(balancerGroup, ec2.Port.tcp(port), 'device connections and health checks from the load balancer');
    balancerGroup.addEgressRule(taskGroup, ec2.Port.tcp(port), 'to the listener tasks');

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
        [env.teltonikaProxyProtocol]: 'true',
      },
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
      desiredCount: teltonikaSettings.minTasks,
      assignPublicIp: true,
      vpcSubnets: { subnetType: ec2.SubnetType.PUBLIC },
      securityGroups: [taskGroup],
      circuitBreaker: { rollback: true },
      minHealthyPercent: 100,
    });

    this.loadBalancer = new elbv2.NetworkLoadBalancer(this, 'LoadBalancer', {
      vpc,
      internetFacing: true,
      securityGroups: [balancerGroup],
      crossZoneEnabled: true,
    });
    const listener = this.loadBalancer.addListener('Devices', { port, protocol: elbv2.Protocol.TCP });
    this.targetGroup = listener.addTargets('Listener', {
      port,
      protocol: elbv2.Protocol.TCP,
      targets: [this.service],
      // A unit whose task is stopped reconnects to another and resends what was not acknowledged.
      deregistrationDelay: Duration.seconds(30),
      healthCheck: { protocol: elbv2.Protocol.TCP, interval: Duration.seconds(30) },
    });
    this.targetGroup.setAttribute('deregistration_delay.connection_termination.enabled', 'true');
    // Every connection reaches a task from the balancer's address: the header names the unit's, which the listener's
    // per-source limits count by (only the balancer can reach a task, so no one else can send a header).
    this.targetGroup.setAttribute('proxy_protocol_v2.enabled', 'true');
    if (certificateArn) {
      this.loadBalancer.addListener('DevicesTls', {
        port: teltonikaSettings.tlsPort,
        protocol: elbv2.Protocol.TLS,
        certificates: [elbv2.ListenerCertificate.fromArn(certificateArn)],
        sslPolicy: elbv2.SslPolicy.RECOMMENDED_TLS,
        defaultTargetGroups: [this.targetGroup],
      });
    }

    const scaling = this.service.autoScaleTaskCount({ minCapacity: teltonikaSettings.minTasks, maxCapacity: teltonikaSettings.maxTasks });
    scaling.scaleOnCpuUtilization('Cpu', { targetUtilizationPercent: teltonikaSettings.cpuTargetPercent });
    scaling.scaleToTrackCustomMetric('Connections', {
      metric: this.metric(metricNames.teltonikaOpenConnections, 'Average', Duration.minutes(1)),
      targetValue: teltonikaSettings.connectionsPerTask,
    });

    const tlsNote = certificateArn ? `, or TLS on ${teltonikaSettings.tlsPort}` : '';
    new CfnOutput(serviceStack(scope), 'TeltonikaHost', {
      value: this.loadBalancer.loadBalancerDnsName,
      description: `Teltonika units: server domain; port ${port}, protocol TCP${tlsNote} (docs/devices.md)`,
    });
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
