/**
 * The sink of this process: the positions stream when POSITIONS_STREAM_NAME names one (AWS), else the local
 * pipeline the local stack registers (`npm start`, the tests). The functions never import the pipeline, so their
 * bundles stay without it. Made on first use: module init does no I/O.
 */
import { config } from '../config.ts';
import { kinesisClient, kinesisSink } from './kinesis-sink.ts';
import type { PositionSink } from './position-sink.ts';

let streamSink: PositionSink | undefined;
let localSink: PositionSink | undefined;

/** The local stack's pipeline sink (shared/devices/local-sink.ts), used when no stream is configured. */
export function useLocalSink(sink: PositionSink): void {
  localSink = sink;
}

export function positionSink(): PositionSink {
  const streamName = config.positionsStreamName();
  if (streamName) {
    streamSink ??= kinesisSink({ client: kinesisClient(), streamName });
    return streamSink;
  }
  if (!localSink) throw new Error('no positions stream (POSITIONS_STREAM_NAME) and no local pipeline sink');
  return localSink;
}
