import { Logger } from '@aws-lambda-powertools/logger';
import { serviceName } from './metric-names.ts';
import { withSourceMappedStack } from './source-mapped-stack.ts';

/**
 * Structured JSON logs (Powertools); the level comes from POWERTOOLS_LOG_LEVEL. An error logged anywhere shows its stack
 * in the TypeScript sources: the replacer maps it before Powertools formats it (shared/source-mapped-stack.ts).
 */
export const logger = new Logger({ serviceName, jsonReplacerFn: (_key, value) => withSourceMappedStack(value) });
