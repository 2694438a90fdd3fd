import type { BatchOutcome, RawRecord } from '../../shared/pipeline/process-positions.ts';

/** What processPositions answers for `records` when it takes every one and finds nothing, with `overrides`. */
export const aBatchOutcome = (records: readonly RawRecord[], overrides: Partial<BatchOutcome> = {}): BatchOutcome => ({
  records: records.length,
  accepted: records.length,
  rejected: [],
  imeis: [],
  trips: 0,
  fills: 0,
  changed: 0,
  removed: 0,
  fillsKeptForSlip: 0,
  tooLate: 0,
  faults: {},
  failedIds: [],
  writeRequests: 0,
  ...overrides,
});
