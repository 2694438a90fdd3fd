import { dynamo } from '../../shared/store/client.ts';

const RECORDER = 'testSentCommands';

/**
 * The DynamoDB commands the store's client sends from now on, by name (GetItemCommand, QueryCommand…). The client is
 * shared by the worker's files: `stopRecordingCommands` belongs in the file's afterEach.
 */
export function recordSentCommands(): string[] {
  const sent: string[] = [];
  dynamo().middlewareStack.add(
    (next, context) => (args) => {
      sent.push(String(context.commandName));
      return next(args);
    },
    { step: 'initialize', name: RECORDER },
  );
  return sent;
}

export const stopRecordingCommands = (): void => void dynamo().middlewareStack.remove(RECORDER);
