/**
 * How the scenario draws its access code, and how a reader gets it back from
 * a screenshot's pixels: one solid block per digit, in that digit's colour,
 * left to right on one row. The site draws the blocks (with the digits
 * beside them for people) on a canvas; the scripted model decodes them from
 * the PNG it was sent. Both sides use this palette, so the reading is exact.
 */

/** The colour of each digit 0–9, as [red, green, blue]: far apart from each other and from black, white and grey. */
export const digitColours: ReadonlyArray<readonly [number, number, number]> = [
  [230, 25, 75],
  [60, 180, 75],
  [255, 225, 25],
  [0, 130, 200],
  [245, 130, 48],
  [145, 30, 180],
  [70, 240, 240],
  [240, 50, 230],
  [128, 128, 0],
  [0, 0, 128],
];

/** Side of a digit's block in CSS pixels, and the gap between two blocks. */
export const blockSize = 36;
export const blockGap = 12;

/** How many digits an access code has. */
export const accessCodeLength = 6;

/** Decoded pixels: `width × height`, 4 bytes (RGBA) per pixel, row by row. */
export interface RgbaImage {
  width: number;
  height: number;
  data: Uint8Array;
}

/** The digit whose colour this pixel has (each channel within `tolerance`), or -1. */
function digitAt(image: RgbaImage, x: number, y: number, tolerance: number): number {
  const offset = (y * image.width + x) * 4;
  const [red, green, blue] = [image.data[offset]!, image.data[offset + 1]!, image.data[offset + 2]!];
  return digitColours.findIndex(([r, g, b]) => Math.abs(red - r) <= tolerance && Math.abs(green - g) <= tolerance && Math.abs(blue - b) <= tolerance);
}

/**
 * Reads the code from an image: the row with the most runs of one digit
 * colour (each run at least half a block wide, whatever the screenshot's
 * scale) gives the digits, left to right. Undefined when no row holds
 * {@link accessCodeLength} such runs.
 */
export function readAccessCode(image: RgbaImage, tolerance = 10): string | undefined {
  const minimumRun = Math.max(4, Math.floor(blockSize / 4));
  let best: number[] = [];
  for (let y = 0; y < image.height; y++) {
    const runs: number[] = [];
    let current = -1;
    let length = 0;
    for (let x = 0; x <= image.width; x++) {
      const digit = x < image.width ? digitAt(image, x, y, tolerance) : -1;
      if (digit === current) {
        length++;
        continue;
      }
      if (current !== -1 && length >= minimumRun) runs.push(current);
      current = digit;
      length = 1;
    }
    if (runs.length > best.length) best = runs;
  }
  return best.length === accessCodeLength ? best.join("") : undefined;
}
