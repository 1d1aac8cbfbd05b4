// The console's app icon, drawn here as a PNG of any size (no image tool needed, the same bytes on every
// machine): the login page's mark, a white "M" on the blue-to-violet gradient, on a rounded square, or
// filling the square with the mark inside the safe zone for a "maskable" icon (the launcher crops it).
import { PNG } from "pngjs";

/** The gradient's stops, as on the login page's mark (src/app/login.css .login-mark). */
const STOPS: [number, [number, number, number]][] = [
  [0, [0x3b, 0x82, 0xf6]],
  [0.6, [0x1f, 0x6f, 0xeb]],
  [1, [0x7c, 0x3a, 0xed]],
];

function gradient(t: number): [number, number, number] {
  for (let i = 1; i < STOPS.length; i++) {
    const [at, to] = STOPS[i];
    const [from, start] = STOPS[i - 1];
    if (t <= at) {
      const k = (t - from) / (at - from);
      return [0, 1, 2].map((c) => Math.round(start[c] + (to[c] - start[c]) * k)) as [number, number, number];
    }
  }
  return STOPS[STOPS.length - 1][1];
}

/** Distance from point p to the segment a-b. */
function toSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
}

/** Inside the rounded square of side 1 with corner radius r (coordinates 0..1)? */
function inRoundedSquare(x: number, y: number, r: number): boolean {
  const cx = Math.min(Math.max(x, r), 1 - r);
  const cy = Math.min(Math.max(y, r), 1 - r);
  return Math.hypot(x - cx, y - cy) <= r;
}

/**
 * The icon at `size` pixels. `maskable`: the gradient fills the whole square and the mark keeps to the
 * middle 60 % (a launcher may cut a circle out of it); otherwise a rounded square on transparency.
 */
export function drawIcon(size: number, maskable = false): Buffer {
  const png = new PNG({ width: size, height: size });
  // The "M": four strokes, in a box of the mark's scale around the centre.
  const scale = maskable ? 0.5 : 0.62;
  const stroke = 0.085 * scale * 1.6;
  const box = (v: number) => 0.5 + (v - 0.5) * scale;
  const strokes: [number, number, number, number][] = [
    [0.2, 0.8, 0.2, 0.2],
    [0.2, 0.2, 0.5, 0.62],
    [0.5, 0.62, 0.8, 0.2],
    [0.8, 0.2, 0.8, 0.8],
  ].map(([ax, ay, bx, by]) => [box(ax), box(ay), box(bx), box(by)]);
  const samples = 4; // 4 × 4 samples a pixel: smooth edges
  for (let py = 0; py < size; py++)
    for (let px = 0; px < size; px++) {
      let cover = 0;
      let mark = 0;
      for (let sy = 0; sy < samples; sy++)
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          if (!maskable && !inRoundedSquare(x, y, 0.21)) continue;
          cover++;
          if (strokes.some(([ax, ay, bx, by]) => toSegment(x, y, ax, ay, bx, by) <= stroke / 2)) mark++;
        }
      const all = samples * samples;
      const [r, g, b] = gradient((px + py) / (2 * size));
      const m = cover ? mark / cover : 0;
      const i = (py * size + px) * 4;
      png.data[i] = Math.round(r + (255 - r) * m);
      png.data[i + 1] = Math.round(g + (255 - g) * m);
      png.data[i + 2] = Math.round(b + (255 - b) * m);
      png.data[i + 3] = Math.round((255 * cover) / all);
    }
  return PNG.sync.write(png, { colorType: 6 });
}
