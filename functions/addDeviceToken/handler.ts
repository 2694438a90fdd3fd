import { operation } from '../../shared/operation.ts';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { getVehicleForUser } from '../../shared/store/vehicles.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input, devicesUrl }) => {
  const vehicle = await getVehicleForUser(user.userUid, input.vehicle_uid);
  const { token, tokenId } = await createDeviceToken(user.userUid, vehicle.vehicleUid);
  return {
    device_token_uid: tokenId,
    vehicle_uid: vehicle.vehicleUid,
    token,
    osmand_url: `${devicesUrl}osmand/${token}?id=${vehicle.imei}`,
  };
});
