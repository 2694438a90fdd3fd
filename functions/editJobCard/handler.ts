import * as v from 'valibot';
import { describePayload, JobCardReceipt, payloadField, readPayload } from '../../shared/domain/job-card.ts';
import { operation } from '../../shared/operation.ts';
import { editJobCard } from '../../shared/store/job-cards.ts';
import { requiredInteger } from '../../shared/contracts/primitives.ts';

/** With a raw JSON body, job_card_uid (like api_key) can only come from the query string. */
export const EditJobCardInput = v.object({
  job_card_uid: requiredInteger('job_card_uid'),
  payload: payloadField,
});

export const EditJobCardOutput = JobCardReceipt;

export const handler = operation(
  'editJobCard',
  EditJobCardInput,
  async ({ user, input, body, sourceIp }) => {
    const content = describePayload(readPayload(body, input.payload), user.gmtOffsetMinutes);
    const card = await editJobCard(user.userUid, input.job_card_uid, content, sourceIp);
    return { job_card_uid: card.jobCardUid, external_reference: card.externalReference };
  },
  { jsonBody: 'payload', output: EditJobCardOutput },
);
