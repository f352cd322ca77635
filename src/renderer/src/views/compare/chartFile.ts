/** A chart as a file a person can keep: its standalone SVG, or a PNG drawn from it on a canvas. */

export { chartFileName } from './chartName'

/** Draws a standalone SVG onto a canvas at `scale`× and returns the PNG. */
export async function pngFromSvg(
  svg: { text: string; width: number; height: number },
  scale = 2,
): Promise<Blob> {
  const img = new Image()
  // A data: URL, because the app's content policy allows images from data: and not from blob:.
  img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg.text)}`
  await img.decode()
  const canvas = document.createElement('canvas')
  canvas.width = Math.round(svg.width * scale)
  canvas.height = Math.round(svg.height * scale)
  const ctx = canvas.getContext('2d')
  if (!ctx) throw new Error('This browser cannot draw on a canvas, so the chart cannot be saved as PNG.')
  ctx.drawImage(img, 0, 0, canvas.width, canvas.height)
  return await new Promise<Blob>((resolve, reject) =>
    canvas.toBlob(
      (b) => (b ? resolve(b) : reject(new Error('The chart could not be encoded as PNG.'))),
      'image/png',
    ),
  )
}

/** Hands a file to the browser's (or Electron's) download flow. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = fileName
  a.click()
  // Revoked a little later: the download reads the URL after click() has returned.
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}
