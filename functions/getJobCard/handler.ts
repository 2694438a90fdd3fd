import * as v from 'valibot';
import { JobCardRecord, toJobCardRecord } from '../../shared/domain/job-card.ts';
import { operation } from '../../shared/operation.ts';
import { getJobCard } from '../../shared/store/job-cards.ts';
import { requiredInteger } from '../../shared/validation.ts';

export const GetJobCardInput = v.object({ job_card_uid: requiredInteger('job_card_uid') });

export const GetJobCardOutput = v.object({ job_card: JobCardRecord });

export const handler = operation('getJobCard', GetJobCardInput, async ({ user, input }) => {
  const card = await getJobCard(user.userUid, input.job_card_uid);
  return { job_card: toJobCardRecord(card, user.gmtOffsetMinutes) };
}, { output: GetJobCardOutput });
