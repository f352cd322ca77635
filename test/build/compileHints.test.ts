import { existsSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { COMPILE_HINT, firstScreenChunks, hintedOnFirstScreen } from '../../scripts/lib/compileHints.js'

const RENDERER = resolve('out/renderer')

/** Vite's build manifest: each chunk's file and the manifest keys it imports. */
const Manifest = z.record(
  z.string(),
  z.object({
    file: z.string(),
    src: z.string().optional(),
    isEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
    dynamicImports: z.array(z.string()).optional(),
  }),
)

function builtManifest(): z.infer<typeof Manifest> {
  const file = join(RENDERER, '.vite', 'manifest.json')
  if (!existsSync(file))
    throw new Error(`${file} is missing: run \`npx electron-vite build\` first (npm test does).`)
  return Manifest.parse(JSON.parse(readFileSync(file, 'utf8')))
}

describe("the compile hint stays off the first screen's load path", () => {
  // entry → shared (static) → react (static); entry ⇢ annotate (dynamic) → keys (static)
  const imports = new Map([
    ['entry', ['shared']],
    ['shared', ['react']],
    ['annotate', ['keys', 'shared']],
  ])

  it('counts what the entries import statically, through other chunks, and not what they load later', () => {
    expect([...firstScreenChunks(imports, ['entry'])].sort()).toEqual(['entry', 'react', 'shared'])
  })

  it('names a hinted chunk only when the first screen would load it', () => {
    const hinted = (name: string) => name === 'annotate' || name === 'keys'
    expect(hintedOnFirstScreen(imports, ['entry'], hinted)).toEqual([])
    // A module the entry needs moved into the hinted key bindings' chunk.
    const moved = new Map([...imports, ['shared', ['react', 'keys']]])
    expect(hintedOnFirstScreen(moved, ['entry'], hinted)).toEqual(['keys'])
  })

  it('holds for the built renderer, whose labelling screen keeps its hint', () => {
    const manifest = builtManifest()
    const hinted = (key: string) => {
      const entry = manifest[key]
      return entry !== undefined && readFileSync(join(RENDERER, entry.file), 'utf8').startsWith(COMPILE_HINT)
    }
    const graph = new Map(Object.entries(manifest).map(([key, e]) => [key, e.imports ?? []]))
    const entries = Object.keys(manifest).filter((key) => manifest[key]?.isEntry)
    expect(entries).toEqual(['index.html'])
    expect(hintedOnFirstScreen(graph, entries, hinted)).toEqual([])
    // Not vacuous: the hint is still on the labelling screen's chunk, which a dynamic import loads.
    const annotate = Object.keys(manifest).find((key) => manifest[key]?.src?.endsWith('AnnotateView.tsx'))
    expect(annotate !== undefined && hinted(annotate)).toBe(true)
    // index.html asks for exactly the scripts the walk found (the entry and its preloads).
    const firstFiles = [...firstScreenChunks(graph, entries)].map((key) => manifest[key]?.file).sort()
    const html = readFileSync(join(RENDERER, 'index.html'), 'utf8')
    expect([...html.matchAll(/assets\/[\w-]+\.js/g)].map((m) => m[0]).sort()).toEqual(firstFiles)
  })
})
