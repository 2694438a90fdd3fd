import * as v from 'valibot';
import { JOB_CARD_AS_ADDED, JOB_CARD_AS_EDITED } from '../../shared/contracts/demo-records.ts';
import { JobCardSnapshotRecord, jobCardUid } from '../../shared/contracts/job-cards.ts';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { nextCursorField, pageCursor, pageLimit } from '../../shared/contracts/paging.ts';
import { integerField } from '../../shared/contracts/primitives.ts';

const GetJobCardHistoryInput = v.object({ job_card_uid: jobCardUid, limit: pageLimit(), cursor: pageCursor });

const GetJobCardHistoryOutput = v.object({
  job_card_uid: integerField,
  cnt: integerField,
  history: v.array(JobCardSnapshotRecord),
  next_cursor: nextCursorField,
});

export const contract = {
  name: 'getJobCardHistory',
  method: 'GET',
  area: 'job cards',
  tableActions: ['Query'],
  summary: "A job card's snapshots, oldest first",
  description:
    'Every version of a job card, oldest first: the create and each edit, with who made it, from where and the document as it was.',
  input: GetJobCardHistoryInput,
  output: GetJobCardHistoryOutput,
  examples: {
    request: { job_card_uid: 1, limit: 100, cursor: '' },
    response: {
      job_card_uid: 1,
      cnt: 2,
      history: [
        {
          history_uid: 1,
          snapshot_datetime: '2026-11-23 05:31:22',
          action: 'create',
          changed_by_user_uid: 1,
          source_ip: '127.0.0.1',
          external_reference: 'WO-2026-1187',
          payload: JOB_CARD_AS_ADDED,
        },
        {
          history_uid: 2,
          snapshot_datetime: '2026-11-23 05:31:22',
          action: 'edit',
          changed_by_user_uid: 1,
          source_ip: '127.0.0.1',
          external_reference: 'WO-2026-1187',
          payload: JOB_CARD_AS_EDITED,
        },
      ],
    },
  },
} as const satisfies OperationDeclaration;
