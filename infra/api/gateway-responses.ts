import * as apigateway from 'aws-cdk-lib/aws-apigateway';
import { type GatewayAnswer, gatewayAnswerBody, gatewayAnswers } from './gateway-answers.ts';

/**
 * API Gateway answers some requests itself (unknown path, throttling, oversized body, a Lambda that failed or timed
 * out); these responses make them wear the service's envelope too (the table is gateway-answers.ts).
 */
export function envelopeGatewayResponses(api: apigateway.RestApi): void {
  for (const [id, answer] of Object.entries<GatewayAnswer>(gatewayAnswers)) {
    api.addGatewayResponse(id, {
      type: apigateway.ResponseType.of(answer.type),
      statusCode: answer.status === undefined ? undefined : String(answer.status),
      responseHeaders: {
        'Content-Type': "'application/json'",
        ...Object.fromEntries(Object.entries(answer.headers ?? {}).map(([name, value]) => [name, `'${value}'`])),
      },
      templates: { 'application/json': gatewayAnswerBody(answer) },
    });
  }
}
