/**
 * The mouse of each page as Playwright's keeps it: where it is (moves start
 * there, a wheel turns there; (0, 0) at first), the points of a move in
 * steps, the buttons' bits, and the check that a point is inside the
 * viewport.
 */
import { ValidationError } from "../../errors.js";
import type { CdpPage } from "./page.js";

export interface Point {
  x: number;
  y: number;
}

const positions = new WeakMap<CdpPage, Point>();

/** Where the mouse of `page` is (main-viewport CSS pixels). */
export const mouseAt = (page: CdpPage): Point => positions.get(page) ?? { x: 0, y: 0 };

/** Notes that the mouse of `page` is now at `point`. */
export const mouseMovedTo = (page: CdpPage, point: Point): void => {
  positions.set(page, { x: point.x, y: point.y });
};

/** The points of a move from `from` to `to` in `steps` equal steps (the last is `to`), as Playwright's `mouse.move`. */
export function stepsBetween(from: Point, to: Point, steps: number): Point[] {
  const points: Point[] = [];
  for (let step = 1; step <= steps; step++) points.push({ x: from.x + (to.x - from.x) * (step / steps), y: from.y + (to.y - from.y) * (step / steps) });
  return points;
}

/** CDP's `buttons` bits of a pressed button. */
export const buttonBits = { left: 1, right: 2, middle: 4 } as const;

/** Refuses a point outside the main viewport (CSS pixels), naming `field`, as the Playwright engine does. */
export function assertInViewport(page: CdpPage, point: Point, field: string): void {
  const { width, height } = page.viewport;
  if (point.x >= width || point.y >= height) throw new ValidationError(field, `(${point.x}, ${point.y}) is outside the ${width}×${height} viewport`);
}
