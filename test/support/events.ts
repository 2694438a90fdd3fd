import type { APIGatewayProxyEvent } from 'aws-lambda';
import { lambdaContext, toApiGatewayEvent } from '../../local/api-gateway-event.ts';

/** An API Gateway REST proxy event, as the emulator (and AWS) would build it, for unit tests of the chain. */
export function anEvent({
  operation = 'getExpenseTypes',
  method = 'GET',
  query = '',
  headers = {},
  body = '',
}: {
  operation?: string;
  method?: string;
  query?: string;
  headers?: Record<string, string>;
  body?: string;
} = {}): APIGatewayProxyEvent {
  return toApiGatewayEvent({
    method,
    path: `/api/${operation}`,
    operation,
    query,
    headers,
    body: Buffer.from(body),
    sourceIp: '198.51.100.7',
  });
}

export const aContext = (operation = 'getExpenseTypes') => lambdaContext(operation, 'req-123');
