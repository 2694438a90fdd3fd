import * as v from 'valibot';
import type { OperationDeclaration } from '../../shared/contracts/operation.ts';
import { described, integerField } from '../../shared/contracts/primitives.ts';

export const contract = {
  name: 'getAccount',
  method: 'GET',
  area: 'account',
  personOnly: true,
  tableActions: ['GetItem'],
  summary: 'Who is signed in',
  description:
    "The signed-in person's account: their e-mail address, the user whose data they see, and that user's GMT offset, " +
    "in which every operation reads and writes the user's own dates and times (the console shows times in it).",
  input: v.object({}),
  output: v.object({
    email: described(v.string(), "The signed-in person's e-mail address."),
    user_name: described(v.string(), 'The user (the account) whose vehicles and data the person sees.'),
    gmt_offset_minutes: described(
      v.pipe(integerField, v.minValue(-720), v.maxValue(840)),
      "The user's GMT offset in minutes east of GMT (120: GMT+2): the offset of the dates and times the operations " +
        "take and answer in the user's own time.",
    ),
  }),
  examples: { request: {}, response: { email: 'demo@fleet.example', user_name: 'Demo Fleet', gmt_offset_minutes: 120 } },
} as const satisfies OperationDeclaration;
