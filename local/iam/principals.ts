/**
 * Who runs what locally, with which permissions: every Lambda function and ECS task of the synthesized stack, keyed by
 * what the local stack runs (a function's handler entry, `functions/<name>/handler.ts`; a task's container, `task:<name>`),
 * with its role's identity policy statements, every CloudFormation intrinsic resolved to the local names and ARNs.
 * Read from the same CDK app `cdk deploy` synthesizes (cdk.json's context), once, without bundling.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { App, type AssetStaging, type CfnResource, Stack } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { repositoryRoot } from '../../infra/api/operation-functions.ts';
import { FleetTrackingStack } from '../../infra/fleet-tracking-stack.ts';
import { type Json, serviceTemplate } from '../../infra/service-template.ts';
import { LOCAL_ACCOUNT, LOCAL_REGION } from './arns.ts';

export interface PolicyStatement {
  Effect: 'Allow' | 'Deny';
  Action?: string | string[];
  NotAction?: string | string[];
  Resource?: string | string[];
  NotResource?: string | string[];
  Condition?: Record<string, Record<string, string | string[]>>;
  Sid?: string;
}

export interface Principal {
  /** the handler entry (`functions/getVehicles/handler.ts`) or the task's container (`task:listener`) */
  key: string;
  /** the name AWS's error message gives the session: the function's or the container's */
  sessionName: string;
  /** the role's logical id, which stands for its name */
  roleName: string;
  /** its identity policies' statements (inline and attached `AWS::IAM::Policy`); managed policies are not read */
  statements: PolicyStatement[];
  /** its environment variables, resolved: which stream, queue or secret it would call in AWS */
  environment: Record<string, string>;
}

/** What each of the stack's functions and tasks may do, by key. */
export type Principals = Record<string, Principal>;

/**
 * Synthesizes the service's stack (no bundling, no template validation) under cdk.json's context and `overrides`, and
 * reads every principal's policies.
 */
export function synthesizedPrincipals(
  localEnvironment: NodeJS.ProcessEnv,
  overrides: Record<string, string> = {},
): { principals: Principals; namingVariables: string[] } {
  const outdir = mkdtempSync(join(tmpdir(), 'fleet-iam-synth-'));
  try {
    const context = JSON.parse(readFileSync(join(repositoryRoot, 'cdk.json'), 'utf8')).context ?? {};
    const app = new App({
      outdir,
      builtinCloudFormationValidation: false,
      context: { ...context, ...overrides, 'aws:cdk:bundling-stacks': [] },
    });
    const stack = new FleetTrackingStack(app, 'FleetTracking');
    const template = serviceTemplate(stack);
    return {
      principals: principalsOf(template, entriesOf(app), localEnvironment),
      namingVariables: [...namingVariablesOf(template.Resources)],
    };
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Each Node.js function's entry, by its logical id. CDK keeps a function's entry only in its (unbundled) asset's
 * bundling options; a function without one (inline code, a CDK provider) is not run locally and has no key.
 */
function entriesOf(app: App): Map<string, string> {
  const entries = new Map<string, string>();
  for (const fn of app.node.findAll().filter((construct): construct is lambda.Function => construct instanceof lambda.Function)) {
    const staging = fn.node.tryFindChild('Code')?.node.tryFindChild('Stage') as AssetStaging | undefined;
    const entry: unknown = (staging as unknown as Json | undefined)?.fingerprintOptions?.bundling?.relativeEntryPath;
    if (typeof entry !== 'string') continue;
    const logicalId = Stack.of(fn).resolve((fn.node.defaultChild as CfnResource).logicalId);
    entries.set(logicalId, relative(repositoryRoot, join(staging?.sourcePath ?? repositoryRoot, entry)));
  }
  return entries;
}

function principalsOf(template: Json, entries: Map<string, string>, localEnvironment: NodeJS.ProcessEnv): Principals {
  const resources: Record<string, Json> = template.Resources;
  const resolve = intrinsicResolver(template, localNames(resources, localEnvironment));
  const roleOf = (value: unknown): string => {
    const getAtt = (value as Json)?.['Fn::GetAtt'];
    if (!Array.isArray(getAtt)) throw new Error(`a role given as ${JSON.stringify(value)}: expected Fn::GetAtt [<role>, Arn]`);
    return getAtt[0];
  };
  const statementsOf = (role: string): PolicyStatement[] => {
    const attached = Object.values(resources).filter(
      (resource) => resource.Type === 'AWS::IAM::Policy' && (resource.Properties.Roles ?? []).some((given: Json) => given?.Ref === role),
    );
    const inline = resources[role]?.Properties?.Policies ?? [];
    return [...attached.map((policy) => policy.Properties), ...inline]
      .flatMap((policy: Json) => policy.PolicyDocument.Statement)
      .map((statement: Json) => resolve(statement) as PolicyStatement);
  };

  const principals: Principals = {};
  for (const [logicalId, resource] of Object.entries(resources)) {
    if (resource.Type === 'AWS::Lambda::Function') {
      const entry = entries.get(logicalId);
      if (!entry) continue;
      const roleName = roleOf(resource.Properties.Role);
      const environment = resolve(resource.Properties.Environment?.Variables ?? {}) as Record<string, string>;
      principals[entry] = { key: entry, sessionName: functionName(entry), roleName, statements: statementsOf(roleName), environment };
    }
    if (resource.Type === 'AWS::ECS::TaskDefinition' && resource.Properties.TaskRoleArn) {
      const roleName = roleOf(resource.Properties.TaskRoleArn);
      for (const container of resource.Properties.ContainerDefinitions ?? []) {
        const key = `task:${container.Name}`;
        const environment = Object.fromEntries(
          (container.Environment ?? []).map(({ Name, Value }: Json) => [Name, String(resolve(Value))]),
        );
        principals[key] = { key, sessionName: container.Name, roleName, statements: statementsOf(roleName), environment };
      }
    }
  }
  return principals;
}

/** `functions/getVehicles/handler.ts` → getVehicles; another file's name without its extension. */
const functionName = (entry: string): string =>
  /^functions\/([^/]+)\/handler\.ts$/.exec(entry)?.[1] ?? (entry.split('/').pop() as string).replace(/\.[^.]+$/, '');

/**
 * The local name of each resource a function or task finds through its environment: the value the local stack gives
 * that variable (TABLE_NAME, BUCKET_NAME). A resource the local stack has no variable for keeps its logical id.
 */
function localNames(resources: Record<string, Json>, localEnvironment: NodeJS.ProcessEnv): Map<string, string> {
  const names = new Map<string, string>();
  for (const [variable, ref] of environmentRefs(resources)) {
    const local = localEnvironment[variable];
    if (local) names.set(ref, local);
  }
  return names;
}

/** The variables that name a resource (TABLE_NAME, POSITIONS_STREAM_NAME): policies resolved under other values differ. */
const namingVariablesOf = (resources: Record<string, Json>): Set<string> =>
  new Set(environmentRefs(resources).map(([variable]) => variable));

/** Each environment variable of a function or container that is a Ref to one of the template's resources. */
function environmentRefs(resources: Record<string, Json>): Array<[string, string]> {
  const refs: Array<[string, string]> = [];
  const environments = Object.values(resources).flatMap((resource): Json[] => {
    if (resource.Type === 'AWS::Lambda::Function') return [resource.Properties.Environment?.Variables ?? {}];
    if (resource.Type === 'AWS::ECS::TaskDefinition')
      return (resource.Properties.ContainerDefinitions ?? []).map((container: Json) =>
        Object.fromEntries((container.Environment ?? []).map(({ Name, Value }: Json) => [Name, Value])),
      );
    return [];
  });
  for (const variables of environments) {
    for (const [variable, value] of Object.entries(variables)) {
      const ref = (value as Json)?.Ref;
      if (typeof ref === 'string' && ref in resources) refs.push([variable, ref]);
    }
  }
  return refs;
}

/** What a resource's Ref and ARN are, by type, from its (local) name. */
const resourceTypes: Record<string, { arn: (name: string) => string; refIsArn?: boolean }> = {
  'AWS::DynamoDB::GlobalTable': { arn: (name) => `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${name}` },
  'AWS::DynamoDB::Table': { arn: (name) => `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${name}` },
  'AWS::S3::Bucket': { arn: (name) => `arn:aws:s3:::${name}` },
  'AWS::Kinesis::Stream': { arn: (name) => `arn:aws:kinesis:${LOCAL_REGION}:${LOCAL_ACCOUNT}:stream/${name}` },
  'AWS::SQS::Queue': { arn: (name) => `arn:aws:sqs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${name}` },
  'AWS::SNS::Topic': { arn: (name) => `arn:aws:sns:${LOCAL_REGION}:${LOCAL_ACCOUNT}:${name}`, refIsArn: true },
  'AWS::SecretsManager::Secret': {
    arn: (name) => `arn:aws:secretsmanager:${LOCAL_REGION}:${LOCAL_ACCOUNT}:secret:${name}`,
    refIsArn: true,
  },
  'AWS::Lambda::Function': { arn: (name) => `arn:aws:lambda:${LOCAL_REGION}:${LOCAL_ACCOUNT}:function:${name}` },
  'AWS::IAM::Role': { arn: (name) => `arn:aws:iam::${LOCAL_ACCOUNT}:role/${name}` },
  'AWS::Events::EventBus': { arn: (name) => `arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:event-bus/${name}` },
  'AWS::Events::Rule': { arn: (name) => `arn:aws:events:${LOCAL_REGION}:${LOCAL_ACCOUNT}:rule/${name}` },
  'AWS::Scheduler::ScheduleGroup': { arn: (name) => `arn:aws:scheduler:${LOCAL_REGION}:${LOCAL_ACCOUNT}:schedule-group/${name}` },
  'AWS::Logs::LogGroup': { arn: (name) => `arn:aws:logs:${LOCAL_REGION}:${LOCAL_ACCOUNT}:log-group:${name}:*` },
  'AWS::KMS::Key': { arn: (name) => `arn:aws:kms:${LOCAL_REGION}:${LOCAL_ACCOUNT}:key/${name}` },
};

const pseudoParameters: Record<string, string> = {
  'AWS::Partition': 'aws',
  'AWS::Region': LOCAL_REGION,
  'AWS::AccountId': LOCAL_ACCOUNT,
  'AWS::URLSuffix': 'amazonaws.com',
  'AWS::StackName': 'FleetTracking',
  'AWS::NoValue': '',
};

/** Resolves Ref, Fn::GetAtt, Fn::Join, Fn::Sub, Fn::Select and Fn::Split to local strings. */
function intrinsicResolver(template: Json, names: Map<string, string>): (value: unknown) => unknown {
  const resources: Record<string, Json> = template.Resources;
  const nameOf = (logicalId: string): string => names.get(logicalId) ?? logicalId;
  const ref = (logicalId: string): string => {
    if (logicalId in pseudoParameters) return pseudoParameters[logicalId] as string;
    const parameter = template.Parameters?.[logicalId];
    if (parameter) return String(parameter.Default ?? logicalId);
    const type = resourceTypes[resources[logicalId]?.Type];
    if (!resources[logicalId]) throw new Error(`Ref to ${logicalId}, which the template does not have`);
    return type?.refIsArn ? type.arn(nameOf(logicalId)) : nameOf(logicalId);
  };
  const getAtt = (logicalId: string, attribute: string): string => {
    const type = resourceTypes[resources[logicalId]?.Type];
    if (attribute === 'Arn' && type) return type.arn(nameOf(logicalId));
    if (attribute === 'StreamArn') return `${getAtt(logicalId, 'Arn')}/stream/local`;
    if (attribute === 'QueueName' || attribute === 'TopicName' || attribute === 'Name') return nameOf(logicalId);
    return `${logicalId}.${attribute}`;
  };
  const resolve = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(resolve);
    if (value === null || typeof value !== 'object') return value;
    const object = value as Json;
    const [intrinsic] = Object.keys(object);
    const argument = object[intrinsic as string];
    if (Object.keys(object).length === 1) {
      if (intrinsic === 'Ref') return ref(argument);
      if (intrinsic === 'Fn::GetAtt') {
        const [logicalId, attribute] = Array.isArray(argument) ? argument : String(argument).split(/\.(.*)/);
        return getAtt(logicalId, attribute);
      }
      if (intrinsic === 'Fn::Join') return (resolve(argument[1]) as unknown[]).join(argument[0]);
      if (intrinsic === 'Fn::Select') return (resolve(argument[1]) as unknown[])[Number(resolve(argument[0]))];
      if (intrinsic === 'Fn::Split') return String(resolve(argument[1])).split(argument[0]);
      if (intrinsic === 'Fn::Sub') {
        const [text, variables] = Array.isArray(argument) ? argument : [argument, {}];
        return String(text).replace(/\$\{([^}!]+)\}/g, (_, name: string) => {
          if (name in variables) return String(resolve(variables[name]));
          const [logicalId, attribute] = name.split(/\.(.*)/);
          return attribute ? getAtt(logicalId as string, attribute) : ref(name);
        });
      }
      if (intrinsic?.startsWith('Fn::')) throw new Error(`${intrinsic} in a policy: the local IAM enforcement cannot resolve it`);
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolve(item)]));
  };
  return resolve;
}
