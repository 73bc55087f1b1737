import { workerRoute } from "../protocol/wire.js";

/** Which of the two routes a request came in on. */
export type RouteScope = "operator" | "tenant";

const operatorShape = ["", "api", "v1", "stations", undefined, "execution", "browser"];
const tenantShape = ["", "api", "v1", "tenant", "stations", undefined, "execution", "browser"];

function matches(segments: string[], shape: (string | undefined)[], stationId: string): boolean {
  if (segments.length !== shape.length) return false;
  return shape.every((expected, index) => {
    const segment = segments[index]!;
    if (expected !== undefined) return segment === expected;
    try {
      return decodeURIComponent(segment) === stationId;
    } catch {
      return false;
    }
  });
}

/**
 * The scope of `pathname` when it is this station's operator route
 * (`/api/v1/stations/:stationId/execution/browser`) or tenant route
 * (`/api/v1/tenant/stations/:stationId/execution/browser`); undefined for
 * anything else, including another station's routes.
 */
export function matchRoute(pathname: string, stationId: string): RouteScope | undefined {
  const segments = pathname.split("/");
  if (matches(segments, operatorShape, stationId)) return "operator";
  if (matches(segments, tenantShape, stationId)) return "tenant";
  return undefined;
}

/**
 * {@link matchRoute} for one station, with its two routes as clients send
 * them (`workerRoute`) compared first: the usual request costs one string
 * comparison; any other spelling (encoded differently) goes through
 * {@link matchRoute}.
 */
export function routeMatcher(stationId: string): (pathname: string) => RouteScope | undefined {
  const tenant = workerRoute(stationId, "tenant");
  const operator = workerRoute(stationId, "operator");
  return (pathname) => (pathname === tenant ? "tenant" : pathname === operator ? "operator" : matchRoute(pathname, stationId));
}
