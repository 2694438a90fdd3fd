import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import { metricsNamespace, serviceName } from '../../shared/metric-names.ts';

/** A custom metric as the service publishes it (Powertools and the Teltonika tasks' EMF always add the `service` dimension). */
export const serviceMetric = (
  metricName: string,
  {
    dimensions = {},
    statistic = 'Sum',
    period = Duration.minutes(5),
  }: { dimensions?: Record<string, string>; statistic?: string; period?: Duration } = {},
) =>
  new cloudwatch.Metric({
    namespace: metricsNamespace,
    metricName,
    dimensionsMap: { service: serviceName, ...dimensions },
    statistic,
    period,
  });
