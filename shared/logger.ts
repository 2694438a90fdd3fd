import { Logger } from '@aws-lambda-powertools/logger';
import { serviceName } from './metric-names.ts';

/** Structured JSON logs (Powertools); the level comes from POWERTOOLS_LOG_LEVEL. */
export const logger = new Logger({ serviceName });
