import { createHash } from 'node:crypto';
import type { CfnResource } from 'aws-cdk-lib';
import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { Construct } from 'constructs';
import { operations } from '../../functions/registry.ts';
import type { OpenApiDocument } from '../../shared/openapi.ts';

/** The documentation snapshot a stage publishes: a new one whenever the document changes. */
export function documentationVersion(document: OpenApiDocument): string {
  return `${document.info.version}-${createHash('sha256').update(JSON.stringify(document)).digest('hex').slice(0, 12)}`;
}

export interface ApiDocumentationProps {
  api: apigateway.RestApi;
  document: OpenApiDocument;
}

/**
 * The OpenAPI document as API Gateway documentation parts: the API, each operation's method (summary and
 * description, with its body's parameters) and each query parameter, plus the version the stage publishes.
 * Every resource's method is ANY, so a wrong method still gets the envelope; the parts name the real one.
 * Response parts are left to the OpenAPI document: one per status and operation would cost ~300 of the
 * stack's 500 resources.
 */
export class ApiDocumentation extends Construct {
  constructor(scope: Construct, id: string, { api, document }: ApiDocumentationProps) {
    super(scope, id);
    const part = (partId: string, location: apigateway.CfnDocumentationPart.LocationProperty, properties: object) =>
      new apigateway.CfnDocumentationPart(this, partId, { restApiId: api.restApiId, location, properties: JSON.stringify(properties) });

    const parts = [part('Api', { type: 'API' }, { info: { description: document.info.description } })];
    for (const operation of operations) {
      const path = `/api/${operation.name}`;
      const described = document.paths[path]?.[operation.method.toLowerCase()];
      const method = api.methods.find((candidate) => candidate.resource.path === path);
      if (!described || !method) throw new Error(`${path} is missing from the OpenAPI document or the API`);
      const at = { path, method: method.httpMethod };
      const description = [described.description, described.requestBody?.description].filter(Boolean).join(' ');
      const operationParts = [
        part(`${operation.name}Method`, { type: 'METHOD', ...at }, { summary: described.summary, description }),
        ...described.parameters.map((parameter) =>
          part(
            `${operation.name}${parameter.name}`,
            { type: parameter.in === 'header' ? 'REQUEST_HEADER' : 'QUERY_PARAMETER', ...at, name: parameter.name },
            {
              description: parameter.description,
              required: parameter.required,
            },
          ),
        ),
      ];
      // Parts document existing entities: create them once the method is there (the method's resource alone:
      // its Lambda permissions name the stage, which waits for the documentation).
      for (const operationPart of operationParts) operationPart.addResourceDependency(method.node.defaultChild as CfnResource);
      parts.push(...operationParts);
    }

    const version = new apigateway.CfnDocumentationVersion(this, 'Version', {
      restApiId: api.restApiId,
      documentationVersion: documentationVersion(document),
      description: `${document.info.title} ${document.info.version}, generated from the operation registry`,
    });
    version.node.addDependency(...parts);
    api.deploymentStage.node.addDependency(version);
  }
}
