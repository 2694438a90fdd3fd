/** The builder of the four background functions, driven by a function of its own: what every one of them gets. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { backgroundFunction, batchFunction } from '../../shared/background-function.ts';
import { logger, metrics } from '../../shared/telemetry.ts';
import { aContext } from '../support/events.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('backgroundFunction', () => {
  it("names the function on every log line of its run and counts the container's cold start", async () => {
    // Prepare
    const coldStarts = vi.spyOn(metrics, 'captureColdStartMetric');
    const appendedKeys = vi.spyOn(logger, 'appendKeys');
    const handler = backgroundFunction('checkQuietVehicles', async (event: { time: string }) => {
      expect(appendedKeys).toHaveBeenCalledWith({ operation: 'checkQuietVehicles' });
      return { checked: event.time };
    });
    // Act
    const result = await handler({ time: '2026-11-29T02:00:00Z' }, aContext('checkQuietVehicles'));
    // Assess
    expect(result).toEqual({ checked: '2026-11-29T02:00:00Z' });
    expect(appendedKeys).toHaveBeenCalledWith({ operation: 'checkQuietVehicles' });
    expect(coldStarts).toHaveBeenCalled();
  });
});

describe('batchFunction', () => {
  it('answers the ids its run gives back as the partial batch response, and none as an empty one', async () => {
    // Prepare
    const handler = batchFunction('sendWebhooks', async (event: { failed: string[] }) => event.failed);
    // Act
    const someFailed = await handler({ failed: ['m-2', 'm-5'] }, aContext('sendWebhooks'));
    const noneFailed = await handler({ failed: [] }, aContext('sendWebhooks'));
    // Assess
    expect(someFailed).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-2' }, { itemIdentifier: 'm-5' }] });
    expect(noneFailed).toEqual({ batchItemFailures: [] });
  });
});
