/**
 * A normalized position of the first demo truck near its depot, as the device entry points put it on the stream: what
 * the scripts' sample events carry (`npm run make-kinesis-event`, the cold-start bench's first batch).
 */
export const samplePosition = (imei: string, gpsDatetime: string, changes: Record<string, unknown> = {}): Record<string, unknown> => ({
  imei,
  gps_datetime: gpsDatetime,
  latitude: -25.9992,
  longitude: 28.1263,
  speed: 48,
  heading: 200,
  ignition: true,
  odometer_km: null,
  engine_hours: null,
  fuel_raw: 160.4,
  supp_volt: 13.9,
  int_batt_volt: 4.1,
  int_temp: 29,
  ext_temp: null,
  driver_tag_id: null,
  device_type: 'FMB920',
  config: '12',
  ...changes,
});
