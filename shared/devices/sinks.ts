/**
 * The sink of this process: the positions stream when POSITIONS_STREAM_NAME names one (AWS), the local pipeline
 * otherwise (`npm start`, the tests). Made on first use: module init does no I/O.
 */
import { config } from '../config.ts';
import { kinesisClient, kinesisSink } from './kinesis-sink.ts';
import { localPipelineSink } from './local-sink.ts';
import type { PositionSink } from './position-sink.ts';

let sink: PositionSink | undefined;

export function positionSink(): PositionSink {
  if (!sink) {
    const streamName = config.positionsStreamName();
    sink = streamName ? kinesisSink({ client: kinesisClient(), streamName }) : localPipelineSink();
  }
  return sink;
}
