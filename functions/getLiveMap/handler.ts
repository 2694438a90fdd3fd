import { BinaryResult } from '../../shared/middleware/envelope.ts';
import { operation } from '../../shared/operation.ts';
import { liveMapPng } from '../../shared/providers/live-map.ts';
import { contract } from './contract.ts';

export const handler = operation(contract, async ({ user, input, bucketVerdict }) => {
  const png = await liveMapPng(user.userUid, {
    imeis: input.filter?.imeis,
    width: input.width,
    height: input.height,
    zoom: input.zoom,
    mapApiKey: input.map_api_key,
    mayDraw: bucketVerdict,
  });
  return new BinaryResult('image/png', png);
});
