/**
 * DynamoDB's own count of what the benchmarks' requests consume: every request asks for ReturnConsumedCapacity,
 * and `usage` adds up write and read units, write requests (items) and the history chunks' bytes.
 */
import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { dynamo } from '../../shared/store/client.ts';
import { itemBytes } from '../../test/support/item-size.ts';

/** the low-level commands the document client sends (its middleware sees them marshalled) */
const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'DeleteItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

export interface Usage {
  writeRequests: number;
  writeUnits: number;
  readUnits: number;
  historyBytes: number;
}

export const usage: Usage = { writeRequests: 0, writeUnits: 0, readUnits: 0, historyBytes: 0 };

/**
 * The read units DynamoDB bills for a request DynamoDB Local answered `reported` for: Local answers 0 for a Query that
 * finds nothing, where DynamoDB bills a read's minimum, as for a missing item (½ unit, 1 strongly consistent; each key
 * of a BatchGetItem).
 */
export function billedReadUnits(command: string, input: Record<string, unknown>, reported: number): number {
  const minimumOf = (consistent: unknown) => (consistent === true ? 1 : 0.5);
  if (command === 'BatchGetItemCommand') {
    const tables = Object.values((input.RequestItems ?? {}) as Record<string, { Keys?: unknown[]; ConsistentRead?: boolean }>);
    return Math.max(
      reported,
      tables.reduce((sum, table) => sum + (table.Keys?.length ?? 0) * minimumOf(table.ConsistentRead), 0),
    );
  }
  return command === 'QueryCommand' || command === 'GetItemCommand' ? Math.max(reported, minimumOf(input.ConsistentRead)) : reported;
}

let measuring = false;

/**
 * Counts every request's consumed capacity, write requests (items) and the history chunks' bytes; once per process,
 * as several benchmarks of one `npm run bench` ask for it.
 */
export function measureCapacity(): void {
  if (measuring) return;
  measuring = true;
  dynamo().middlewareStack.add(
    (next, context) => async (args) => {
      const input = args.input as Record<string, unknown>;
      input.ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const consumed = (result.output as { ConsumedCapacity?: unknown }).ConsumedCapacity;
      const units = [consumed ?? []]
        .flat()
        .reduce((sum: number, entry) => sum + Number((entry as { CapacityUnits?: number }).CapacityUnits ?? 0), 0);
      const command = String(context.commandName);
      if (WRITES.has(command)) {
        usage.writeUnits += units;
        usage.writeRequests += command === 'TransactWriteItemsCommand' ? (input.TransactItems as unknown[]).length : 1;
        const raw = input.Item as Record<string, unknown> | undefined;
        // marshalled or not, depending on where the document client's marshalling sits in the stack
        const item = raw && typeof raw.pk === 'object' ? unmarshall(raw as Record<string, AttributeValue>) : raw;
        if (command === 'PutItemCommand' && String(item?.pk).endsWith('#POSITIONS')) usage.historyBytes += itemBytes(item);
      } else usage.readUnits += billedReadUnits(command, input, units);
      return result;
    },
    { step: 'initialize', name: 'benchConsumedCapacity' },
  );
}
