/**
 * `npm test`'s first step (pretest): the tests' database is DynamoDB Local, a Java program, so a missing Java
 * is said before any test output rather than as a failed global setup.
 */
import { isJavaMissing, JAVA_MISSING } from '../local/dynamodb-local.ts';
import { runScript, UsageError } from './cli.ts';

await runScript({
  usage: `
npm run check-java

Exits 1 with what to install when Java (for DynamoDB Local) is missing; npm test runs it first.`,
  options: {},
  async run() {
    if (isJavaMissing()) throw new UsageError(JAVA_MISSING);
  },
});
