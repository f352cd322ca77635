import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'

/**
 * SVG charts as PNG, through resvg compiled to WebAssembly (no native build). The wasm module and
 * the font load on the first PNG only, so commands that never ask for one start as fast as before.
 */

type ResvgModule = typeof import('@resvg/resvg-wasm')

// Resolved from the running file: node_modules sits beside src/ and beside out/ alike, so the
// source (tsx, vitest) and the built CLI find the same files in a clean clone after `npm ci`.
const requireHere = createRequire(import.meta.url)

let engine: Promise<ResvgModule> | null = null
let fonts: Uint8Array[] | null = null

function loadEngine(): Promise<ResvgModule> {
  engine ??= (async () => {
    const mod = await import('@resvg/resvg-wasm')
    await mod.initWasm(readFileSync(requireHere.resolve('@resvg/resvg-wasm/index_bg.wasm')))
    return mod
  })().catch((e: unknown) => {
    // Let a later call try again rather than keep a rejected promise forever.
    engine = null
    throw new Error(`Could not start the PNG renderer (@resvg/resvg-wasm): ${(e as Error).message}`)
  })
  return engine
}

/**
 * The font charts are drawn with. The wasm build of resvg sees no system fonts, so without a font
 * buffer every label, axis and title would silently vanish from the PNG.
 */
export function chartFonts(): Uint8Array[] {
  fonts ??= [readFileSync(requireHere.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'))]
  return fonts
}

export interface Raster {
  png: Uint8Array
  width: number
  height: number
  /** RGBA, row by row. */
  pixels: Uint8Array
}

/** Renders an SVG with exactly the given fonts; `svgToPng` is the one to use. */
export async function rasterise(svg: string, fontBuffers: Uint8Array[], scale = 2): Promise<Raster> {
  const { Resvg } = await loadEngine()
  const r = new Resvg(svg, {
    font: { fontBuffers, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' },
    fitTo: { mode: 'zoom', value: scale },
    background: '#ffffff',
  })
  try {
    const image = r.render()
    try {
      return { png: image.asPng(), width: image.width, height: image.height, pixels: image.pixels }
    } finally {
      image.free()
    }
  } finally {
    r.free()
  }
}

/** A chart SVG as PNG bytes, at twice its size so text stays sharp on high-density screens. */
export async function svgToPng(svg: string, scale = 2): Promise<Uint8Array> {
  return (await rasterise(svg, chartFonts(), scale)).png
}
