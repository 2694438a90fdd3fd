/** DynamoDB's failures as the SDK throws them, for tests that inject them into a mocked or wrapped client. */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';

/** A transaction cancelled with one reason per item, in order ('None' for an item that was fine). */
export const cancelledTransaction = (...codes: string[]) =>
  new TransactionCanceledException({
    message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
    $metadata: {},
    CancellationReasons: codes.map((Code) => ({ Code })),
  });

/** A request that got no answer in time (the client's requestTimeout, a socket timeout). */
export const timedOut = (message = 'a request has exceeded the configured 1500 ms requestTimeout') =>
  Object.assign(new Error(message), { name: 'TimeoutError' });
