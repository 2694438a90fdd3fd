import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NestedStack, type Stack, Stage } from 'aws-cdk-lib';

export type Json = Record<string, any>;

/**
 * The service's stack and its nested stacks as one template, each cross-stack reference resolved to what it stands
 * for (a nested stack's parameter to the parent's value, the parent's `Outputs.X` to the nested stack's value), so a
 * check reads the wiring as it would in one stack: a method's integration names `Fn::GetAtt [<function>, Arn]`,
 * a policy `Ref <table>`, wherever the split put them. Logical ids are unique across the stacks (each is made from
 * its construct path), which this checks. The stack test reads it, and so does the local IAM enforcement (local/iam/).
 */
export function serviceTemplate(root: Stack): Json {
  const stacks = [root, ...root.node.findAll().filter((construct): construct is NestedStack => construct instanceof NestedStack)];
  // A nested stack has no artifact of its own: its template is a file of the assembly.
  const assembly = (Stage.of(root) as Stage).synth();
  const templates = new Map<Stack, Json>(
    stacks.map((stack) => [stack, JSON.parse(readFileSync(join(assembly.directory, stack.templateFile), 'utf8'))]),
  );
  const logicalIdOf = (nested: NestedStack): string => nested.nestedStackParent?.resolve(nested.nestedStackResource?.logicalId);
  const childOf = (stack: Stack, logicalId: string): NestedStack | undefined =>
    stacks.find(
      (candidate): candidate is NestedStack => candidate.nestedStackParent === stack && logicalIdOf(candidate as NestedStack) === logicalId,
    );

  const resolveIn = (stack: Stack, value: unknown): unknown => {
    if (Array.isArray(value)) return value.map((item) => resolveIn(stack, item));
    if (value === null || typeof value !== 'object') return value;
    const object = value as Json;
    const parent = stack.nestedStackParent;
    if (parent && typeof object.Ref === 'string' && object.Ref in (templates.get(stack)?.Parameters ?? {})) {
      const given = templates.get(parent)?.Resources[logicalIdOf(stack as NestedStack)].Properties.Parameters?.[object.Ref];
      if (given !== undefined) return resolveIn(parent, given);
    }
    const getAtt = object['Fn::GetAtt'];
    if (Array.isArray(getAtt) && typeof getAtt[1] === 'string' && getAtt[1].startsWith('Outputs.')) {
      const child = childOf(stack, getAtt[0]);
      if (child) return resolveIn(child, templates.get(child)?.Outputs[getAtt[1].slice('Outputs.'.length)].Value);
    }
    return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, resolveIn(stack, item)]));
  };

  const resources: Json = {};
  for (const stack of stacks) {
    for (const [logicalId, resource] of Object.entries<Json>(templates.get(stack)?.Resources ?? {})) {
      if (resource.Type === 'AWS::CloudFormation::Stack') continue;
      if (logicalId in resources) throw new Error(`${logicalId} is in two of the service's stacks`);
      resources[logicalId] = resolveIn(stack, resource);
    }
  }
  const top = templates.get(root) as Json;
  return { ...top, Resources: resources, Outputs: resolveIn(root, top.Outputs ?? {}) };
}
