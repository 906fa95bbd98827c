// PNG and SVG export of a view: the view's paint() draws into an offscreen
// canvas (at 2x for a sharp PNG) or an SvgPainter, a footer below it names the
// trace, the time range shown and the states' colours (export_caption.ts), and
// the file is downloaded.
import { CanvasPainter } from '../render/canvas_painter';
import type { Painter } from '../render/painter';
import { SvgPainter } from '../render/svg_painter';
import { withCaption, type ExportCaption } from './export_caption';

export type { ExportCaption } from './export_caption';

export interface ExportSize {
  width: number;
  height: number;
}

/** PNG pixels per CSS pixel. */
export const PNG_SCALE = 2;

/** A canvas to render into: an HTMLCanvasElement or OffscreenCanvas (or a test fake). */
export interface RenderCanvas {
  width: number;
  height: number;
  getContext(kind: '2d'): unknown;
}

function defaultCanvas(width: number, height: number): RenderCanvas {
  if (typeof document !== 'undefined') {
    const c = document.createElement('canvas');
    c.width = width;
    c.height = height;
    return c;
  }
  if (typeof OffscreenCanvas !== 'undefined') return new OffscreenCanvas(width, height);
  throw new Error('no canvas to render the PNG into');
}

function canvasToBlob(canvas: RenderCanvas): Promise<Blob> {
  const c = canvas as Partial<HTMLCanvasElement> & Partial<OffscreenCanvas>;
  if (typeof c.convertToBlob === 'function') return c.convertToBlob({ type: 'image/png' });
  // Encode at once: Chromium runs toBlob's encoder in idle time, which a page
  // that keeps drawing (a blinking selection) may not have for seconds.
  if (typeof c.toDataURL === 'function') {
    try {
      const url = c.toDataURL.call(canvas as HTMLCanvasElement, 'image/png');
      const comma = url.indexOf(',');
      if (url.startsWith('data:image/png;base64,') && comma > 0) {
        const bin = atob(url.slice(comma + 1));
        const bytes = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
        return Promise.resolve(new Blob([bytes], { type: 'image/png' }));
      }
    } catch (err) {
      return Promise.reject(err instanceof Error ? err : new Error(String(err)));
    }
  }
  if (typeof c.toBlob === 'function') {
    const toBlob = c.toBlob.bind(canvas as HTMLCanvasElement);
    return new Promise((resolve, reject) => {
      toBlob((blob) => {
        if (blob) resolve(blob);
        else reject(new Error('the browser could not encode the PNG'));
      }, 'image/png');
    });
  }
  return Promise.reject(new Error('this canvas cannot be encoded as PNG'));
}

/** Paints at PNG_SCALE into an offscreen canvas and encodes it as PNG. */
export async function renderPng(
  size: ExportSize,
  paint: (p: Painter) => void,
  createCanvas: (width: number, height: number) => RenderCanvas = defaultCanvas,
): Promise<Blob> {
  const width = Math.max(1, Math.ceil(size.width));
  const height = Math.max(1, Math.ceil(size.height));
  const canvas = createCanvas(width * PNG_SCALE, height * PNG_SCALE);
  const ctx = canvas.getContext('2d') as CanvasRenderingContext2D | null;
  if (!ctx) throw new Error('no 2D canvas context for the PNG');
  ctx.setTransform(PNG_SCALE, 0, 0, PNG_SCALE, 0, 0);
  const painter = new CanvasPainter(ctx, width, height);
  painter.clear('#ffffff');
  paint(painter);
  return canvasToBlob(canvas);
}

/** Paints into an SvgPainter and returns the SVG document. */
export function renderSvg(size: ExportSize, paint: (p: Painter) => void): string {
  const painter = new SvgPainter(Math.ceil(size.width), Math.ceil(size.height));
  painter.clear('#ffffff');
  paint(painter);
  return painter.toSvg();
}

/** Makes the browser download `blob` as `filename`. */
export function downloadBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.style.display = 'none';
  document.body.appendChild(a);
  a.click();
  a.remove();
  // Give the browser time to start the download before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

let captionSource: ((name: string) => ExportCaption | null) | null = null;

/**
 * Where exports take their footer from (the shell: the trace, the timeline's
 * window, the legend's states), given the export's name; null: no footer.
 */
export function setExportCaption(source: ((name: string) => ExportCaption | null) | null): void {
  captionSource = source;
}

/**
 * Exports a view's picture as `<name>.png` or `<name>.svg`, with the footer
 * `caption` (by default the one setExportCaption gives) below it. Returns a
 * promise that rejects when rendering fails (callers may ignore it and treat
 * this as fire-and-forget; failures are also logged).
 */
export function exportView(
  name: string,
  viewSize: ExportSize,
  viewPaint: (p: Painter) => void,
  format: 'png' | 'svg',
  caption: ExportCaption | null = captionSource?.(name) ?? null,
): Promise<void> {
  const { size, paint } = caption ? withCaption(viewSize, viewPaint, caption) : { size: viewSize, paint: viewPaint };
  const file = `${safeFileName(name)}.${format}`;
  const done =
    format === 'svg'
      ? Promise.resolve().then(() => {
          const svg = renderSvg(size, paint);
          downloadBlob(new Blob([svg], { type: 'image/svg+xml' }), file);
        })
      : renderPng(size, paint).then((blob) => downloadBlob(blob, file));
  done.catch((err: unknown) => console.error(`export of ${file} failed:`, err));
  return done;
}

/** A file name without path separators or characters browsers reject. */
export function safeFileName(name: string): string {
  const cleaned = name.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, '_').trim();
  return cleaned === '' ? 'export' : cleaned;
}
