import { readPayload } from '../../shared/contracts/job-cards.ts';
import { describePayload } from '../../shared/domain/job-card/rules.ts';
import { operation } from '../../shared/operation.ts';
import { addJobCard } from '../../shared/store/job-cards.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input, body, sourceIp }) => {
  const content = describePayload(readPayload(body, input.payload), user.gmtOffsetMinutes);
  const card = await addJobCard(user.userUid, content, sourceIp);
  return { job_card_uid: card.jobCardUid, external_reference: card.externalReference };
});
