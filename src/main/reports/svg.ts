import type { DatasetMetrics } from '../../shared/contract/metrics'

/** Charts as standalone SVG strings: embeddable in HTML and valid as .svg files. */

const PALETTE = ['#3b6fd8', '#e07b39', '#3aa55d', '#c44e52', '#8c6bb1', '#7f7f7f', '#bcbd22', '#17becf']

export function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

function frame(width: number, height: number, title: string, body: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11"><title>${escapeXml(title)}</title><rect width="100%" height="100%" fill="#fff"/><text x="${width / 2}" y="16" text-anchor="middle" font-size="13">${escapeXml(title)}</text>${body}</svg>`
}

/** Grouped bars: one group per variant, one bar per judge (the shape of the FaaF tables). */
export function errorByVariantSvg(m: DatasetMetrics): string {
  const W = 720
  const H = 320
  const left = 44
  const bottom = 60
  const top = 28
  const plotH = H - top - bottom
  // The axis stops at the next 20% step above the worst error rate, so small differences show.
  let worst = 0
  for (const j of m.judges)
    for (const f of Object.values(j.byVariant)) worst = Math.max(worst, f.errorRate ?? 0)
  const scale = Math.min(1, Math.max(0.2, Math.ceil(worst * 5) / 5))
  const groups = m.variants
  const judges = m.judges
  const groupW = (W - left - 10) / Math.max(1, groups.length)
  const barW = Math.max(2, (groupW - 12) / Math.max(1, judges.length))
  const parts: string[] = []
  for (let t = 0; t <= 4; t++) {
    const y = top + plotH - (t / 4) * plotH
    parts.push(
      `<line x1="${left}" x2="${W - 10}" y1="${y}" y2="${y}" stroke="#ddd"/><text x="${left - 4}" y="${y + 4}" text-anchor="end">${Math.round(t * 25 * scale)}%</text>`,
    )
  }
  groups.forEach((v, g) => {
    const x0 = left + g * groupW + 6
    judges.forEach((j, k) => {
      const er = j.byVariant[v]?.errorRate
      if (er == null) return
      const h = (er / scale) * plotH
      parts.push(
        `<rect x="${(x0 + k * barW).toFixed(1)}" y="${(top + plotH - h).toFixed(1)}" width="${(barW - 1).toFixed(1)}" height="${h.toFixed(1)}" fill="${PALETTE[k % PALETTE.length]}"><title>${escapeXml(`${j.label} · ${v}: ${(er * 100).toFixed(1)}%`)}</title></rect>`,
      )
    })
    parts.push(
      `<text x="${(x0 + (groupW - 12) / 2).toFixed(1)}" y="${top + plotH + 14}" text-anchor="middle">${escapeXml(v)}</text>`,
    )
  })
  judges.forEach((j, k) => {
    const x = left + (k % 4) * 170
    const y = H - 26 + Math.floor(k / 4) * 13
    parts.push(
      `<rect x="${x}" y="${y - 8}" width="9" height="9" fill="${PALETTE[k % PALETTE.length]}"/><text x="${x + 12}" y="${y}">${escapeXml(j.label.slice(0, 28))}</text>`,
    )
  })
  return frame(
    W,
    H + Math.max(0, Math.ceil(judges.length / 4) - 2) * 13,
    'Error rate by variant',
    parts.join(''),
  )
}

/** Cost against error rate, the Pareto front (cheapest for its error) joined by a line. */
export function costVsErrorSvg(m: DatasetMetrics): string {
  const W = 520
  const H = 320
  const pad = { l: 54, r: 16, t: 28, b: 40 }
  const onFront = new Set(m.paretoFront)
  const rated = m.judges.filter((j) => j.errorRate !== null)
  const pts = rated.map((j) => ({ x: j.cost, y: j.errorRate!, label: j.label }))
  const maxX = Math.max(1e-9, ...pts.map((p) => p.x))
  const maxY = Math.max(0.01, ...pts.map((p) => p.y))
  const sx = (x: number) => pad.l + (x / maxX) * (W - pad.l - pad.r)
  const sy = (y: number) => H - pad.b - (y / maxY) * (H - pad.t - pad.b)
  const front = new Set(rated.flatMap((j, i) => (onFront.has(j.runId) ? [i] : [])))
  const line = pts
    .map((p, i) => ({ p, i }))
    .filter(({ i }) => front.has(i))
    .sort((a, b) => a.p.x - b.p.x)
    .map(({ p }) => `${sx(p.x).toFixed(1)},${sy(p.y).toFixed(1)}`)
    .join(' ')
  const parts = [
    `<line x1="${pad.l}" x2="${W - pad.r}" y1="${H - pad.b}" y2="${H - pad.b}" stroke="#999"/>`,
    `<line x1="${pad.l}" x2="${pad.l}" y1="${pad.t}" y2="${H - pad.b}" stroke="#999"/>`,
    `<text x="${W / 2}" y="${H - 8}" text-anchor="middle">cost ($), max ${maxX.toFixed(4)}</text>`,
    `<text x="12" y="${H / 2}" transform="rotate(-90 12 ${H / 2})" text-anchor="middle">error rate, max ${(maxY * 100).toFixed(1)}%</text>`,
    line ? `<polyline points="${line}" fill="none" stroke="#c44e52" stroke-dasharray="4 3"/>` : '',
    ...pts.map(
      (p, i) =>
        `<circle cx="${sx(p.x).toFixed(1)}" cy="${sy(p.y).toFixed(1)}" r="${front.has(i) ? 6 : 4}" fill="${front.has(i) ? '#c44e52' : '#3b6fd8'}"><title>${escapeXml(`${p.label}: $${p.x.toFixed(4)}, ${(p.y * 100).toFixed(1)}%${front.has(i) ? ' (Pareto front)' : ''}`)}</title></circle>`,
    ),
  ]
  return frame(W, H, 'Cost against error rate (red: Pareto front)', parts.join(''))
}
