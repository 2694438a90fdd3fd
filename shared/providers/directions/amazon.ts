/**
 * Amazon Location Service Routes: CalculateRoutes (POST /v2/routes) by car with the function's IAM role, no key.
 * Origin, Destination and the stops between as Waypoints, [lng, lat] each; LegAdditionalFeatures Summary makes every
 * leg carry VehicleLegDetails.Summary.Overview.Distance (m) and .Duration (s). A stop ends a leg, so the route has
 * one leg per pair of stops; a ferry or walking stretch splits a stop-to-stop leg into several, which are summed up
 * to the leg that arrives at a waypoint. The geometry is not asked for: a route stores only its legs' measures.
 */
import type { CalculateRoutesResponse, GeoRoutesClient, RouteLeg } from '@aws-sdk/client-geo-routes';
import { config } from '../../config.ts';
import type { LatLng } from '../../domain/geo.ts';
import { tracer } from '../../telemetry.ts';
import { amazonLocationClientSettings, amazonLocationFailure } from '../amazon-location.ts';
import { providerTimeoutMs } from '../provider-request.ts';
import { type DirectionsProvider, measuredLegs, unexpectedAnswer } from './provider.ts';

const NAME = 'amazon';
let client: GeoRoutesClient | undefined;

/** Loaded on first use, so other providers' functions never pay for the SDK module at cold start. */
async function routesClient(): Promise<GeoRoutesClient> {
  const { GeoRoutesClient: Client } = await import('@aws-sdk/client-geo-routes');
  // one attempt within PROVIDER_TIMEOUT_MS (the abort signal), as every directions provider gets
  client ??= tracer.captureAWSv3Client(new Client({ maxAttempts: 1, ...amazonLocationClientSettings(config.amazonRoutesEndpoint()) }));
  return client;
}

const position = ({ lat, lng }: LatLng): number[] => [lng, lat];

export function amazonRoutesProvider(): DirectionsProvider {
  return {
    name: NAME,
    endpoint: config.amazonRoutesEndpoint() ?? 'amazon-location-routes',
    async legs(points: readonly LatLng[]) {
      const timeoutMs = providerTimeoutMs();
      const { CalculateRoutesCommand } = await import('@aws-sdk/client-geo-routes');
      const command = new CalculateRoutesCommand({
        Origin: position(points[0] as LatLng),
        Destination: position(points[points.length - 1] as LatLng),
        Waypoints: points.slice(1, -1).map((point) => ({ Position: position(point) })),
        TravelMode: 'Car',
        LegAdditionalFeatures: ['Summary'],
      });
      const answer = await (await routesClient()).send(command, { abortSignal: AbortSignal.timeout(timeoutMs) }).catch((error: unknown) => {
        throw amazonLocationFailure(`directions provider ${NAME}`, error, timeoutMs);
      });
      return measuredLegs(NAME, stopToStopLegs(answer, points.length - 1), points.length - 1, (leg) => [leg.distance, leg.duration]);
    },
  };
}

/** The first route's legs, summed between stops: a leg arriving at a waypoint (or the last leg) ends a stop-to-stop leg. */
function stopToStopLegs(answer: CalculateRoutesResponse, expected: number): Array<{ distance: number; duration: number }> {
  const legs = answer.Routes?.[0]?.Legs;
  if (!Array.isArray(legs) || legs.length < expected) throw unexpectedAnswer(NAME);
  const joined: Array<{ distance: number; duration: number }> = [];
  let current = { distance: 0, duration: 0 };
  legs.forEach((leg, index) => {
    const { distance, duration, arrivesAtWaypoint } = legMeasure(leg);
    current = { distance: current.distance + distance, duration: current.duration + duration };
    if (arrivesAtWaypoint || index === legs.length - 1 || legs.length === expected) {
      joined.push(current);
      current = { distance: 0, duration: 0 };
    }
  });
  return joined;
}

function legMeasure(leg: RouteLeg): { distance: number; duration: number; arrivesAtWaypoint: boolean } {
  const details = leg.VehicleLegDetails ?? leg.FerryLegDetails ?? leg.PedestrianLegDetails;
  const overview = details?.Summary?.Overview;
  return {
    distance: overview?.Distance ?? Number.NaN,
    duration: overview?.Duration ?? Number.NaN,
    arrivesAtWaypoint: details?.Arrival?.Place?.WaypointIndex !== undefined,
  };
}
