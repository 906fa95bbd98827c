// Colours: a stable colour from a name, and small helpers for shades and
// readable text on a coloured bar.

/** FNV-1a over UTF-16 code units: the same name always gives the same hash. */
export function hashString(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

function hex2(v: number): string {
  return Math.max(0, Math.min(255, Math.round(v))).toString(16).padStart(2, '0');
}

export function rgbToHex(r: number, g: number, b: number): string {
  return `#${hex2(r)}${hex2(g)}${hex2(b)}`;
}

/** '#rrggbb' or '#rgb' → [r, g, b]; null when it is not such a colour. */
export function parseHex(color: string): [number, number, number] | null {
  let m = /^#([0-9a-f]{6})$/i.exec(color);
  if (m) {
    const v = parseInt(m[1]!, 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  m = /^#([0-9a-f]{3})$/i.exec(color);
  if (m) {
    const s = m[1]!;
    return [0, 1, 2].map((i) => parseInt(s[i]! + s[i]!, 16)) as [number, number, number];
  }
  return null;
}

export function hslToHex(h: number, s: number, l: number): string {
  // h in degrees, s and l in 0..1.
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const hp = (((h % 360) + 360) % 360) / 60;
  const x = c * (1 - Math.abs((hp % 2) - 1));
  let r = 0;
  let g = 0;
  let b = 0;
  if (hp < 1) [r, g, b] = [c, x, 0];
  else if (hp < 2) [r, g, b] = [x, c, 0];
  else if (hp < 3) [r, g, b] = [0, c, x];
  else if (hp < 4) [r, g, b] = [0, x, c];
  else if (hp < 5) [r, g, b] = [x, 0, c];
  else [r, g, b] = [c, 0, x];
  const m = l - c / 2;
  return rgbToHex((r + m) * 255, (g + m) * 255, (b + m) * 255);
}

/** A stable, reasonably saturated colour for a name: '#rrggbb'. */
export function colorFromName(name: string): string {
  const h = hashString(name);
  const hue = h % 360;
  const sat = 0.45 + ((h >>> 9) % 30) / 100; // 0.45..0.74
  const light = 0.48 + ((h >>> 17) % 20) / 100; // 0.48..0.67
  return hslToHex(hue, sat, light);
}

/** The colour multiplied towards black by `f` (0 = unchanged, 1 = black). */
export function darken(color: string, f: number): string {
  const rgb = parseHex(color);
  if (!rgb) return color;
  return rgbToHex(rgb[0] * (1 - f), rgb[1] * (1 - f), rgb[2] * (1 - f));
}

/** The colour mixed towards white by `f`. */
export function lighten(color: string, f: number): string {
  const rgb = parseHex(color);
  if (!rgb) return color;
  return rgbToHex(rgb[0] + (255 - rgb[0]) * f, rgb[1] + (255 - rgb[1]) * f, rgb[2] + (255 - rgb[2]) * f);
}

/** 'rgba(r,g,b,a)' from '#rrggbb'. */
export function withAlpha(color: string, alpha: number): string {
  const rgb = parseHex(color);
  if (!rgb) return color;
  return `rgba(${rgb[0]},${rgb[1]},${rgb[2]},${alpha})`;
}

/** Black or white, whichever reads better on `background`. */
export function textColorOn(background: string): string {
  const rgb = parseHex(background);
  if (!rgb) return '#000000';
  // Relative luminance (sRGB approximation is enough here).
  const lum = (0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]) / 255;
  return lum > 0.55 ? '#000000' : '#ffffff';
}
