/**
 * A small SVG element tree that renders to a string. Every attribute value and every text is
 * escaped here, in one place, so a dataset or judge named `<script>` stays text wherever the
 * string goes (the Compare view inserts it as HTML, the report embeds it in a page).
 */

export type Attr = string | number | undefined
export type Child = SvgNode | string | null | undefined | false
export interface SvgNode {
  tag: string
  attrs: Record<string, Attr>
  children: Child[]
}

export function h(tag: string, attrs: Record<string, Attr> = {}, ...children: Child[]): SvgNode {
  return { tag, attrs, children }
}

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/** Coordinates to two decimals: short strings, and the same string for the same figures. */
export function num(v: number): string {
  return String(Math.round(v * 100) / 100)
}

function attrText(v: Attr): string | null {
  if (v === undefined) return null
  return typeof v === 'number' ? num(v) : escapeXml(v)
}

export function renderSvg(node: SvgNode): string {
  const attrs = Object.entries(node.attrs)
    .map(([k, v]) => [k, attrText(v)] as const)
    .filter(([, v]) => v !== null)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('')
  const inner = node.children
    .map((c) => (typeof c === 'string' ? escapeXml(c) : c ? renderSvg(c) : ''))
    .join('')
  return inner === '' ? `<${node.tag}${attrs}/>` : `<${node.tag}${attrs}>${inner}</${node.tag}>`
}
