// Images are compressed toward 800 KB before upload (SPEC §9): under 1300 KB they are scaled to 3/4,
// under 1800 KB to 2/3, above that to 1/2, then re-encoded by browser-image-compression.
import imageCompression from "browser-image-compression";

const KB = 1024;

/** The scale SPEC §9 applies to an image of this many bytes, or 1 when it is already small enough. */
export function compressionScale(bytes: number, target: number): number {
  if (bytes <= target) return 1;
  if (bytes < 1300 * KB) return 3 / 4;
  if (bytes < 1800 * KB) return 2 / 3;
  return 1 / 2;
}

/** The image compressed toward `target` bytes; GIFs (animation) and small images pass unchanged. */
export async function compressImage(file: File, target: number): Promise<File> {
  const scale = compressionScale(file.size, target);
  if (scale === 1 || file.type === "image/gif") return file;
  const bitmap = await createImageBitmap(file);
  const longest = Math.max(bitmap.width, bitmap.height);
  bitmap.close();
  const compressed = await imageCompression(file, {
    maxSizeMB: target / (KB * KB),
    maxWidthOrHeight: Math.round(longest * scale),
    // Its worker would load the library from a CDN; the console must work offline.
    useWebWorker: false,
    initialQuality: 0.85,
  });
  return new File([compressed], file.name, { type: compressed.type });
}
