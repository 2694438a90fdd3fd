/**
 * Which of a list of vehicle_uids are not the user's (shared/store/vehicles.ts, unlinkedVehicleUids): a webhook's
 * vehicle_uids are checked by reading their links alone, not every link of the user.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { unlinkedVehicleUids } from '../../shared/store/vehicles.ts';
import { givenUser, givenVehicle } from '../support/builders.ts';
import { recordSentCommands, stopRecordingCommands } from '../support/sent-commands.ts';

describe('unlinkedVehicleUids', () => {
  afterEach(stopRecordingCommands);

  it("names the vehicles that are not the user's, reading only the links asked about", async () => {
    // Prepare
    const [user, other] = await Promise.all([givenUser(), givenUser()]);
    const mine = await Promise.all(Array.from({ length: 12 }, () => givenVehicle(user)));
    const theirs = await givenVehicle(other);
    const [first, second] = mine.map((vehicle) => vehicle.vehicleUid) as [number, number];
    const sent = recordSentCommands();
    // Act
    const unlinked = await unlinkedVehicleUids(user.userUid, [first, theirs.vehicleUid, second, 999_999_999_999]);
    // Assess
    expect(unlinked).toEqual([theirs.vehicleUid, 999_999_999_999]);
    expect(sent).toEqual(['BatchGetItemCommand']);
  });

  it('answers a vehicle asked about twice, which BatchGetItem itself refuses', async () => {
    // Prepare
    const user = await givenUser();
    const linked = await givenVehicle(user);
    // Act
    const unlinked = await unlinkedVehicleUids(user.userUid, [linked.vehicleUid, 999_999_999_998, linked.vehicleUid, 999_999_999_998]);
    // Assess
    expect(unlinked).toEqual([999_999_999_998, 999_999_999_998]);
  });

  it('checks more vehicles than one BatchGetItem reads', async () => {
    // Prepare
    const user = await givenUser();
    const linked = await givenVehicle(user);
    const asked = [...Array.from({ length: 150 }, (_, n) => 900_000_000_000 + n), linked.vehicleUid];
    const sent = recordSentCommands();
    // Act
    const unlinked = await unlinkedVehicleUids(user.userUid, asked);
    // Assess
    expect(unlinked).toEqual(asked.slice(0, 150));
    expect(sent).toEqual(['BatchGetItemCommand', 'BatchGetItemCommand']);
  });
});
