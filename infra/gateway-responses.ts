import * as apigateway from 'aws-cdk-lib/aws-apigateway';

const envelope = (message: string) => JSON.stringify({ version: '1', result: 'error', error_msg: message });

/**
 * API Gateway answers some requests itself (unknown path, throttling, oversized body, a Lambda that failed);
 * these responses make them wear the service's envelope too.
 */
export function envelopeGatewayResponses(api: apigateway.RestApi): void {
  const responses: Array<[string, apigateway.ResponseType, string | undefined, string, Record<string, string>?]> = [
    // An unknown /api/<name> has no resource, which API Gateway reports as a missing token.
    ['UnknownOperation', apigateway.ResponseType.MISSING_AUTHENTICATION_TOKEN, '404', envelope('unknown operation')],
    // Every 429 says when to come back, as the functions' own do (docs/operations.md, "Scaling").
    ['Throttled', apigateway.ResponseType.THROTTLED, '429', envelope('request throttled, retry later'), { 'Retry-After': "'1'" }],
    ['TooLarge', apigateway.ResponseType.REQUEST_TOO_LARGE, '413', envelope('request body too large')],
    ['Timeout', apigateway.ResponseType.INTEGRATION_TIMEOUT, '504', envelope('request timed out')],
    ['Default4xx', apigateway.ResponseType.DEFAULT_4XX, '400', envelope('bad request')],
    // No status of its own: a Lambda that timed out or crashed keeps API Gateway's 502, as the local emulator answers.
    ['Default5xx', apigateway.ResponseType.DEFAULT_5XX, undefined, envelope('internal error')],
  ];
  for (const [id, type, statusCode, body, headers] of responses) {
    api.addGatewayResponse(id, {
      type,
      statusCode,
      responseHeaders: { 'Content-Type': "'application/json'", ...headers },
      templates: { 'application/json': body },
    });
  }
}
