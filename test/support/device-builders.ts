/** Devices as they call the service: OsmAnd apps and Traccar servers over real HTTP, with tokens made as the admin CLI makes them. */
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { inject } from 'vitest';
import { bucketName, s3 } from '../../shared/store/bucket.ts';
import { createDeviceToken } from '../../shared/store/device-tokens.ts';
import { type ApiResponse, api, call } from './api.ts';
import type { TestUser } from './builders.ts';

export async function givenDeviceToken(user: TestUser): Promise<string> {
  return (await createDeviceToken(user.userUid)).token;
}

interface DeviceCall {
  method?: string;
  query?: Record<string, string | number>;
  /** a body sent as it is, with `contentType` */
  body?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** The device entry points of an emulator (by default the run's shared one). */
export const createDevices = (baseUrl: () => string = () => inject('apiUrl')) => {
  const send = (path: string, { method = 'POST', query, body, contentType, headers }: DeviceCall): Promise<ApiResponse> => {
    const search = new URLSearchParams(
      Object.entries(query ?? {}).map(([name, value]): [string, string] => [name, String(value)]),
    ).toString();
    return call(method, `${baseUrl()}${path}${search ? `?${search}` : ''}`, {
      headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...headers },
      ...(body === undefined ? {} : { body }),
    });
  };
  return {
    osmand: (token: string, request: DeviceCall = {}) => send(`/devices/osmand/${encodeURIComponent(token)}`, request),
    /** forward.type=json; without a token in the path, pass it as `Authorization: Bearer` in headers */
    traccar: (token: string | undefined, body: unknown, request: DeviceCall = {}) =>
      send(token === undefined ? '/devices/traccar' : `/devices/traccar/${encodeURIComponent(token)}`, {
        body: JSON.stringify(body),
        contentType: 'application/json',
        ...request,
      }),
  };
};

export const devices = createDevices();

/** The positions the API serves for a vehicle on a UTC day. */
export async function storedPositions(user: TestUser, vehicleUid: number, day: string): Promise<Array<Record<string, unknown>>> {
  const res = await api.get('getPositions', {
    api_key: user.key,
    vehicle_uid: vehicleUid,
    start_datetime: `${day} 00:00:00`,
    end_datetime: `${day} 23:59:59`,
  });
  return res.body.positions ?? [];
}

/**
 * The records of an IMEI as the pipeline archived them (positions/raw/ in s3rver): the fields no operation shows;
 * from `positions/dead-letter/`, the lines of the records it set aside ({ id, reason, data }).
 */
export async function archivedRecords(imei: string, folder: 'raw' | 'dead-letter' = 'raw'): Promise<Array<Record<string, unknown>>> {
  const today = new Date().toISOString().slice(0, 10).replaceAll('-', '/');
  const prefix = `positions/${folder}/${today}/devices-`;
  const { Contents = [] } = await s3().send(new ListObjectsV2Command({ Bucket: bucketName(), Prefix: prefix }));
  const texts = await Promise.all(
    Contents.map(async (object) => {
      const { Body } = await s3().send(new GetObjectCommand({ Bucket: bucketName(), Key: object.Key }));
      return (await Body?.transformToString()) ?? '';
    }),
  );
  return texts
    .flatMap((text) => text.split('\n'))
    .filter((line) => line.includes(imei))
    .map((line) => JSON.parse(line));
}
