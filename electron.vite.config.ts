import { resolve } from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'electron-vite'

export default defineConfig({
  main: {
    build: {
      rollupOptions: {
        input: {
          index: resolve(__dirname, 'src/main/index.ts'),
          serve: resolve(__dirname, 'src/main/server/serveMain.ts'),
          cli: resolve(__dirname, 'src/main/cli/index.ts'),
        },
      },
    },
  },
  preload: {
    // A sandboxed preload cannot require() modules, so everything it uses is bundled into it.
    build: { externalizeDeps: false, rollupOptions: { output: { format: 'cjs' } } },
  },
  renderer: {
    root: resolve(__dirname, 'src/renderer'),
    build: { rollupOptions: { input: resolve(__dirname, 'src/renderer/index.html') } },
    plugins: [react()],
  },
})
