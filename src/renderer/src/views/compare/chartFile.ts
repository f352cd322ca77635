/**
 * A chart on screen as a file a person can keep: a standalone SVG (styles inlined, since the
 * app's stylesheet does not travel with the file) or a PNG drawn from that SVG on a canvas.
 */

export { chartFileName } from './chartName'

const SVG_NS = 'http://www.w3.org/2000/svg'

/** The presentation properties the compare charts set through CSS classes. */
const STYLE_PROPS = [
  'fill',
  'fill-opacity',
  'stroke',
  'stroke-width',
  'stroke-dasharray',
  'stroke-opacity',
  'opacity',
  'font-family',
  'font-size',
  'font-weight',
  'visibility',
] as const

export interface LegendEntry {
  label: string
  colour: string
}

function isTransparent(colour: string): boolean {
  return colour === 'transparent' || /^rgba\(.*,\s*0\)$/.test(colour)
}

/** The colour behind the chart on screen, so light-on-dark charts stay readable in the file. */
function backdrop(el: Element): string {
  for (let e: Element | null = el; e; e = e.parentElement) {
    const bg = getComputedStyle(e).backgroundColor
    if (bg && !isTransparent(bg)) return bg
  }
  return '#ffffff'
}

/** The drawing size of an SVG in its own user units. */
function sizeOf(svg: SVGSVGElement): { width: number; height: number } {
  const vb = svg.viewBox.baseVal
  if (vb && vb.width > 0 && vb.height > 0) return { width: vb.width, height: vb.height }
  const box = svg.getBoundingClientRect()
  return { width: Math.round(box.width), height: Math.round(box.height) }
}

function node<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  text?: string,
): SVGElementTagNameMap[K] {
  const el = document.createElementNS(SVG_NS, name)
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v))
  if (text !== undefined) el.textContent = text
  return el
}

/**
 * Serialises a chart as one SVG document: a title above, the chart with its computed styles
 * written onto each element, and the legend (which is HTML on screen) drawn below.
 */
export function standaloneSvg(
  svg: SVGSVGElement,
  opts: { title: string; legend?: readonly LegendEntry[] },
): { text: string; width: number; height: number } {
  const { width, height } = sizeOf(svg)
  const clone = svg.cloneNode(true) as SVGSVGElement
  const originals = svg.querySelectorAll('*')
  const copies = clone.querySelectorAll('*')
  originals.forEach((orig, i) => {
    const copy = copies[i] as SVGElement | undefined
    if (!copy) return
    const cs = getComputedStyle(orig)
    for (const p of STYLE_PROPS) {
      const v = cs.getPropertyValue(p)
      if (v) copy.style.setProperty(p, v)
    }
    copy.removeAttribute('class')
  })
  const ink = getComputedStyle(svg).color || '#222222'
  const font = getComputedStyle(svg).fontFamily || 'sans-serif'
  const top = 26
  const legend = opts.legend ?? []
  // Legend entries flow left to right and wrap; the width per character is an estimate, which
  // is enough to keep labels from running into one another.
  const rowH = 16
  let x = 8
  let row = 0
  const placed = legend.map((l) => {
    const w = 20 + Math.min(l.label.length, 48) * 6.2
    if (x > 8 && x + w > width) {
      x = 8
      row++
    }
    const at = { ...l, x, y: height + top + 6 + row * rowH }
    x += w + 12
    return at
  })
  const total = height + top + (legend.length > 0 ? (row + 1) * rowH + 10 : 6)
  const out = node('svg', { width, height: total, viewBox: `0 0 ${width} ${total}` })
  out.setAttribute('xmlns', SVG_NS)
  out.setAttribute('font-family', font)
  out.append(node('rect', { width: '100%', height: '100%', fill: backdrop(svg) }))
  out.append(
    node('text', { x: width / 2, y: 17, 'text-anchor': 'middle', 'font-size': 13, fill: ink }, opts.title),
  )
  const body = node('g', { transform: `translate(0 ${top})` })
  body.append(...Array.from(clone.childNodes))
  out.append(body)
  for (const p of placed) {
    out.append(node('rect', { x: p.x, y: p.y, width: 10, height: 10, fill: p.colour }))
    const label = p.label.length > 48 ? `${p.label.slice(0, 47)}…` : p.label
    out.append(node('text', { x: p.x + 14, y: p.y + 9, 'font-size': 11, fill: ink }, label))
  }
  return { text: new XMLSerializer().serializeToString(out), width, height: total }
}

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
