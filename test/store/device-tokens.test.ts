/**
 * A user's device token found by its id (shared/store/device-tokens.ts): through the user's reference to it, one
 * GetItem however many tokens the user has, and through the user's list for a token made before references.
 */
import { DeleteCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { NotFound } from '../../shared/errors.ts';
import { dynamo, tableName } from '../../shared/store/client.ts';
import { createDeviceToken, findDeviceToken, hashDeviceToken, revokeUserDeviceToken } from '../../shared/store/device-tokens.ts';
import { keys } from '../../shared/store/keys.ts';
import { givenUser } from '../support/builders.ts';
import { recordSentCommands, stopRecordingCommands } from '../support/sent-commands.ts';

describe('revokeUserDeviceToken', () => {
  afterEach(stopRecordingCommands);

  it("reads the token's reference and revokes it, whatever the number of the user's tokens", async () => {
    // Prepare
    const user = await givenUser();
    const tokens = await Promise.all(Array.from({ length: 25 }, () => createDeviceToken(user.userUid)));
    const revoked = tokens[12] as (typeof tokens)[number];
    const sent = recordSentCommands();
    // Act
    await revokeUserDeviceToken(user.userUid, revoked.tokenId);
    // Assess
    expect(sent).toEqual(['GetItemCommand', 'UpdateItemCommand']);
    expect((await findDeviceToken(hashDeviceToken(revoked.token)))?.revokedAt).toEqual(expect.any(String));
    expect((await findDeviceToken(hashDeviceToken((tokens[13] as (typeof tokens)[number]).token)))?.revokedAt).toBeNull();
  });

  it('finds a token made before references in the list of the user, and revokes it', async () => {
    // Prepare
    const user = await givenUser();
    const older = await createDeviceToken(user.userUid);
    await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: keys.deviceTokenReference(user.userUid, older.tokenId) }));
    // Act
    await revokeUserDeviceToken(user.userUid, older.tokenId);
    // Assess
    expect((await findDeviceToken(hashDeviceToken(older.token)))?.revokedAt).toEqual(expect.any(String));
  });

  it("answers not found for another user's token, by its id, and leaves it", async () => {
    // Prepare
    const [owner, other] = await Promise.all([givenUser(), givenUser()]);
    const theirs = await createDeviceToken(owner.userUid);
    // Act
    const refusal = revokeUserDeviceToken(other.userUid, theirs.tokenId);
    // Assess
    await expect(refusal).rejects.toEqual(NotFound.notLinked('device token'));
    expect((await findDeviceToken(hashDeviceToken(theirs.token)))?.revokedAt).toBeNull();
  });

  it('revokes a token once when two deletes meet: the other is not found', async () => {
    // Prepare
    const user = await givenUser();
    const token = await createDeviceToken(user.userUid);
    // Act
    const outcomes = await Promise.allSettled([1, 2, 3].map(() => revokeUserDeviceToken(user.userUid, token.tokenId)));
    // Assess
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.flatMap((outcome) => (outcome.status === 'rejected' ? [outcome.reason] : []))).toEqual([
      NotFound.notLinked('device token'),
      NotFound.notLinked('device token'),
    ]);
  });
});
