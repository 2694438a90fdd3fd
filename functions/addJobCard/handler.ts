import * as v from 'valibot';
import { describePayload, JobCardReceipt, payloadField, readPayload } from '../../shared/domain/job-card.ts';
import { operation } from '../../shared/operation.ts';
import { addJobCard } from '../../shared/store/job-cards.ts';

/** `payload` is the form field; a raw JSON body is the payload itself and reaches the handler as `body`. */
export const AddJobCardInput = v.object({ payload: payloadField });

export const AddJobCardOutput = JobCardReceipt;

export const handler = operation(
  'addJobCard',
  AddJobCardInput,
  async ({ user, input, body, sourceIp }) => {
    const content = describePayload(readPayload(body, input.payload), user.gmtOffsetMinutes);
    const card = await addJobCard(user.userUid, content, sourceIp);
    return { job_card_uid: card.jobCardUid, external_reference: card.externalReference };
  },
  { jsonBody: 'payload', output: AddJobCardOutput },
);
