import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { serviceTemplate as mergedTemplate } from '../../infra/service-template.ts';

/** Synthesizing the whole app takes seconds alone and over a minute beside a busy suite on two cores. */
export const SYNTH_TIMEOUT_MS = 240_000;

/** The service's stacks as one template to assert on (infra/service-template.ts). */
export const serviceTemplate = (root: Stack): Template => Template.fromJSON(mergedTemplate(root));
