import type { LinkedVehicle } from '../domain/vehicle.ts';
import type { ItemPosition } from '../store/requests.ts';
import { readLinkedVehicles } from '../store/vehicles.ts';
import { AnswerPage, type PageContext, type PageRequest } from './answer-page.ts';

interface LinkedVehiclesRequest extends PageRequest {
  filter?: { text: string; imeis: string[] } | undefined;
}

/** getVehicles' and getLiveData's answer: the linked vehicles as `toRecord` shows them, a page at a time when asked. */
export async function linkedVehiclesAnswer<R>(
  context: PageContext & { input: LinkedVehiclesRequest },
  toRecord: (vehicle: LinkedVehicle) => R,
): Promise<{ filter: string; cnt: number; vehicles: R[]; next_cursor?: string }> {
  const { user, input } = context;
  const page = await AnswerPage.open<ItemPosition>(context);
  await readLinkedVehicles(user.userUid, input.filter?.imeis, page.reader(toRecord));
  return { filter: input.filter?.text ?? '', cnt: page.size, vehicles: page.records<R>(), ...(await page.nextCursor()) };
}
