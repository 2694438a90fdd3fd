/**
 * IAM, enforced locally (docs/decisions.md, "IAM enforced locally"): every AWS SDK call made while a function or task
 * runs (`runAs`) is checked against that principal's policies in the synthesized stack by @cloud-copilot/iam-simulate,
 * and refused with AWS's AccessDeniedException when its role does not allow it. Calls outside any principal (the
 * tests' builders, the seed, the admin scripts) are an operator's and are not checked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { appendFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runSimulation } from '@cloud-copilot/iam-simulate';
import { Client, ServiceException } from '@smithy/smithy-client';
import { type AwsRequest, awsRequestsOf, LOCAL_ACCOUNT } from './arns.ts';
import type { Principal, Principals } from './principals.ts';

/** Where each process appends the calls it saw (one JSON line per distinct principal, action and resource). */
export const CALLS_DIR_VARIABLE = 'LOCAL_IAM_CALLS_DIR';

const running = new AsyncLocalStorage<string>();
let principals: Principals | undefined;
const decisions = new Map<string, Promise<string>>();
/** Each principal's condition keys, read from its statements once per set of policies. */
let testedKeys = new WeakMap<Principal, Set<string>>();
const recorded = new Set<string>();

/** Runs `work` as the function with this handler entry (or the task `task:<container>`): its SDK calls get its permissions. */
export function runAs<T>(key: string, work: () => T): T {
  return running.run(key, work);
}

/** From now on every SDK client of this process checks its calls; `policies` may be replaced (a test removes a grant). */
export function enforceIam(policies: Principals): void {
  principals = policies;
  decisions.clear();
  testedKeys = new WeakMap();
  installMiddleware();
  // The evaluator loads its action data on its first decision (~150 ms): paid now, not by the first request.
  const [first] = Object.values(policies);
  if (first)
    void simulate(first, 'dynamodb:GetItem', `arn:aws:dynamodb:us-east-1:${LOCAL_ACCOUNT}:table/warm-up`, {}).catch(() => undefined);
}

/** The policies enforced now, if any. */
export const enforcedPolicies = (): Principals | undefined => principals;

/** Calls are no longer checked (a test that enforced policies of its own puts things back). */
export function stopEnforcingIam(): void {
  principals = undefined;
  decisions.clear();
}

/**
 * The current principal's permission for requests it makes: an SDK call's, or what a local stand-in does in place of an
 * AWS API (the local pipeline sink stands in for the stream's PutRecords), made from the principal (its environment).
 */
export async function authorize(requestsOf: (principal: Principal) => AwsRequest[]): Promise<void> {
  const key = running.getStore();
  if (!principals || key === undefined) return;
  const principal = principals[key];
  if (!principal) throw new Error(`${key} runs locally but the synthesized stack has no function or task with that entry`);
  for (const request of requestsOf(principal)) {
    const decision = await decide(principal, request);
    record(key, request, decision);
    if (decision !== 'Allowed') throw accessDenied(principal, request);
  }
}

let installed = false;

/**
 * One place for every client: smithy's `Client.send`, which every AWS SDK v3 client inherits (the shared/ clients,
 * Powertools' Secrets Manager client, whatever a new function creates), adds the check to the client's middleware
 * stack on its first call. The check runs at the build step, after the document client has marshalled the input.
 */
function installMiddleware(): void {
  if (installed) return;
  installed = true;
  const send = Client.prototype.send;
  const checked = new WeakSet<object>();
  Client.prototype.send = function sendChecked(this: Client<any, any, any, any>, ...args: Parameters<typeof send>) {
    if (!checked.has(this.middlewareStack)) {
      checked.add(this.middlewareStack);
      this.middlewareStack.add(
        (next, context) => async (call) => {
          await authorize(() => awsRequestsOf(String(context.clientName), String(context.commandName), call.input as Record<string, any>));
          return next(call);
        },
        { step: 'build', name: 'localIamEnforcement', override: true },
      );
    }
    return send.apply(this, args) as ReturnType<typeof send>;
  } as typeof send;
}

/** The condition keys a principal's statements test: only those make two requests differ in the decision (read once per policy). */
function conditionKeysOf(principal: Principal): Set<string> {
  let keys = testedKeys.get(principal);
  if (!keys) {
    keys = new Set(
      principal.statements.flatMap((statement) =>
        Object.values(statement.Condition ?? {}).flatMap((test) => Object.keys(test).map((key) => key.toLowerCase())),
      ),
    );
    testedKeys.set(principal, keys);
  }
  return keys;
}

function decide(principal: Principal, request: AwsRequest): Promise<string> {
  const tested = conditionKeysOf(principal);
  const context = Object.fromEntries(Object.entries(request.context).filter(([key]) => tested.has(key.toLowerCase())));
  const cacheKey = JSON.stringify([principal.key, request.action, request.resource, context]);
  let decision = decisions.get(cacheKey);
  if (!decision) {
    decision = simulate(principal, request.action, request.resource, context);
    decisions.set(cacheKey, decision);
  }
  return decision;
}

async function simulate(principal: Principal, action: string, resource: string, context: AwsRequest['context']): Promise<string> {
  const answer = await runSimulation(
    {
      identityPolicies: [{ name: principal.roleName, policy: { Version: '2012-10-17', Statement: principal.statements } }],
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      request: {
        action,
        principal: `arn:aws:iam::${LOCAL_ACCOUNT}:role/${principal.roleName}`,
        resource: { accountId: LOCAL_ACCOUNT, resource },
        contextVariables: context,
      },
    },
    {},
  );
  if (answer.resultType === 'error') throw new Error(`IAM simulation of ${action} on ${resource} failed: ${JSON.stringify(answer.errors)}`);
  return answer.overallResult;
}

/** AWS's refusal, word for word, as the SDK raises it: a client fault the error mapper answers with `internal error`. */
function accessDenied(principal: Principal, { action, resource }: AwsRequest): ServiceException {
  return new ServiceException({
    name: 'AccessDeniedException',
    $fault: 'client',
    $metadata: { httpStatusCode: 400 },
    message:
      `User: arn:aws:sts::${LOCAL_ACCOUNT}:assumed-role/${principal.roleName}/${principal.sessionName} is not authorized to perform: ` +
      `${action} on resource: ${resource} because no identity-based policy allows the ${action} action`,
  });
}

/**
 * Appends a call not seen before to this process's file, at once: a test worker may be stopped without warning. A
 * DynamoDB call carries the shapes of its partition keys (ids and hashes as `*`), so the grants check can tell a
 * rate bucket's update from any other (test/support/grants-used.ts).
 */
function record(key: string, { action, resource, context }: AwsRequest, decision: string): void {
  const directory = process.env[CALLS_DIR_VARIABLE];
  if (!directory) return;
  const leadingKeys = [context['dynamodb:LeadingKeys'] ?? []].flat().map(keyShape);
  const line = JSON.stringify({
    principal: key,
    action,
    resource,
    decision,
    ...(leadingKeys.length > 0 ? { leadingKeys: [...new Set(leadingKeys)].sort() } : {}),
  });
  if (recorded.has(line)) return;
  recorded.add(line);
  mkdirSync(directory, { recursive: true });
  appendFileSync(join(directory, `${process.pid}.jsonl`), `${line}\n`);
}

/** A partition key's shape: hashes and numbers as `*` (`RATE#TOKEN#*`, `USER#*#VEHICLES`), so the record stays small. */
const keyShape = (key: string): string => key.replace(/[0-9a-f]{16,}/gi, '*').replace(/\d+/g, '*');
