import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import type * as dynamodb from 'aws-cdk-lib/aws-dynamodb';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { NodejsFunction } from 'aws-cdk-lib/aws-lambda-nodejs';
import * as logs from 'aws-cdk-lib/aws-logs';
import type * as s3 from 'aws-cdk-lib/aws-s3';
import { Construct } from 'constructs';
import { handlerPath, scheduledFunctions } from '../../functions/registry.ts';
import { DETECTION_TABLE_ACTIONS } from '../../shared/contracts/operation.ts';
import { bundlingOf, functionDefaults, functionEnvironment, repositoryRoot } from '../api/operation-functions.ts';
import { configureGeocoding } from '../api/providers.ts';

export interface QuietVehiclesProps {
  table: dynamodb.ITableV2;
  bucket: s3.IBucket;
}

/**
 * An EventBridge schedule → checkQuietVehicles (docs/positions-pipeline.md, "Quiet vehicles"): it queries the table's
 * sparse `quiet` index for the vehicles due, then closes open trips and declares devices offline as the pipeline
 * writes trips and events. Granted exactly what that code calls: Query (the index, checkpoints, history, trips,
 * fills, the vehicle's users and their locations), BatchGetItem (vehicles and track items), GetItem (a driver's tag,
 * the address cache), PutItem (the address cache; the transaction's events and trips), UpdateItem (the track item,
 * trip ids) and DeleteItem (the transaction's replaced trips).
 */
export class QuietVehicles extends Construct {
  readonly function: NodejsFunction;

  constructor(scope: Construct, id: string, { table, bucket }: QuietVehiclesProps) {
    super(scope, id);
    const [scheduled] = scheduledFunctions;
    this.function = new NodejsFunction(this, scheduled.name, {
      ...functionDefaults,
      entry: join(repositoryRoot, handlerPath(scheduled.name)),
      description: `schedule ${scheduled.name}: ${scheduled.summary}`,
      timeout: Duration.seconds(55),
      // one run at a time: a run that overlaps the next would only find the same vehicles
      reservedConcurrentExecutions: 1,
      logGroup: new logs.LogGroup(this, `${scheduled.name}Logs`, { retention: logs.RetentionDays.ONE_MONTH }),
      environment: functionEnvironment(table, bucket),
      bundling: bundlingOf(scheduled.name),
    });
    configureGeocoding(this, this.function);
    table.grant(this.function, ...DETECTION_TABLE_ACTIONS.map((action) => `dynamodb:${action}`));
    new events.Rule(this, 'Schedule', {
      description: `runs ${scheduled.name}`,
      schedule: events.Schedule.rate(Duration.minutes(scheduled.everyMinutes)),
      targets: [new targets.LambdaFunction(this.function, { retryAttempts: 0 })],
    });
  }
}
