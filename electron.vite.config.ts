import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'
import type { Plugin } from 'vite'
import { COMPILE_HINT, hintedOnFirstScreen } from './scripts/lib/compileHints.js'
import { CSP_META_CONTENT } from './src/main/shell/csp'

/**
 * Puts the app's one CSP (src/main/shell/csp.ts) into the built index.html, which file:// pages
 * need because they carry no headers. Only at build time: the dev server relies on inline scripts
 * for hot reload. An index.html that states a different policy fails the build.
 */
function cspMeta(): Plugin {
  return {
    name: 'factlab-csp-meta',
    apply: 'build',
    transformIndexHtml(html) {
      const existing =
        /<meta[^>]+http-equiv=["']Content-Security-Policy["'][^>]*content=["']([^"']*)["']/i.exec(html)
      if (existing) {
        if (existing[1] !== CSP_META_CONTENT)
          throw new Error(
            `src/renderer/index.html states a Content-Security-Policy different from src/main/shell/csp.ts:\n  ${existing[1]}\nRemove the meta tag (the build adds it) or make it identical.`,
          )
        return html
      }
      return [
        {
          tag: 'meta',
          attrs: { 'http-equiv': 'Content-Security-Policy', content: CSP_META_CONTENT },
          injectTo: 'head-prepend',
        },
      ]
    },
  }
}

/**
 * V8 compiles a function the first time it runs. The first label after the labelling screen opens
 * ran about fifty functions for the first time (the key's handler, the reducer, the rows' updates),
 * and compiling them took a third of that key's task: at 1M targets its frame was the slowest of
 * the bench's presses. Chromium's compile hint (`//# allFunctionsCalledOnLoad` atop a script)
 * compiles every function of a chunk as it loads instead. It is given to the chunks only a label
 * runs through (the labelling screen's own and the key bindings'), loaded when that screen first
 * opens; not to the first screen's chunk, which is large and would pay for it before anything
 * shows. Electron's Chromium reads the same comment.
 */
function compileHints(): Plugin {
  const onLabelPath = (id: string) =>
    /src\/renderer\/src\/views\/annotate\/AnnotateView\.tsx$/.test(id) || /node_modules\/tinykeys\//.test(id)
  return {
    name: 'factlab-compile-hints',
    apply: 'build',
    renderChunk(code, chunk) {
      if (chunk.isEntry || !chunk.moduleIds.some(onLabelPath)) return null
      return { code: `${COMPILE_HINT}\n${code}`, map: null }
    },
    // A hinted chunk that the entry imports statically (a shared module moved into it, say) would
    // be preloaded and compiled whole before the first screen shows: the build stops instead.
    generateBundle(_, bundle) {
      const chunks = Object.values(bundle).flatMap((c) => (c.type === 'chunk' ? [c] : []))
      const hinted = hintedOnFirstScreen(
        new Map(chunks.map((c) => [c.fileName, c.imports])),
        chunks.filter((c) => c.isEntry).map((c) => c.fileName),
        (name) => chunks.some((c) => c.fileName === name && c.code.startsWith(COMPILE_HINT)),
      )
      if (hinted.length > 0)
        this.error(
          `The first screen would load chunks that carry the compile hint: ${hinted.join(', ')}. Keep the labelling screen's modules out of what the first screen imports statically.`,
        )
    },
  }
}

export default defineConfig({
  main: {
    build: {
      // serve.js and cli.js run under plain Node: nothing in their import graph may touch electron.
      rolldownOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          serve: resolve(__dirname, 'src/main/server/serveMain.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
          // A worker thread's script (metrics/compareInBackground.ts finds it beside the entries).
          compareWorker: resolve(__dirname, 'src/main/metrics/compareWorker.ts'),
        },
      },
    },
  },
  preload: {
    // A sandboxed preload cannot require() modules, so everything it uses is bundled into one
    // CommonJS file; `.cjs` because the package is an ES module package.
    build: {
      externalizeDeps: false,
      rolldownOptions: {
        input: { index: resolve(__dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs', codeSplitting: false },
      },
    },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    // The manifest lists each chunk's static imports: test/build/compileHints.test.ts reads it.
    build: { manifest: true, rolldownOptions: { input: resolve(__dirname, 'src/renderer/index.html') } },
    plugins: [react(), cspMeta(), compileHints()],
  },
})
