// Chromium's compile hint, and the rule that keeps it off the first screen. A chunk that starts
// with the hint has every function compiled as it loads: worth it for the labelling screen's
// chunks, which a key press runs through, and a cost before anything shows if such a chunk is
// one the first screen waits for. Used by the build (electron.vite.config.ts), which fails when
// the rule breaks, and by a test that reads the built manifest.

export const COMPILE_HINT = '//# allFunctionsCalledOnLoad'

/**
 * The chunks a page loads before its first screen can run: its entries and, transitively, what
 * they import statically (the build preloads those). A dynamic import loads later, when a view
 * or panel opens, so it does not count. `imports` maps a chunk to the chunks it imports statically.
 */
export function firstScreenChunks(imports, entries) {
  const seen = new Set()
  const todo = [...entries]
  while (todo.length > 0) {
    const name = todo.pop()
    if (seen.has(name)) continue
    seen.add(name)
    todo.push(...(imports.get(name) ?? []))
  }
  return seen
}

/** The compile-hinted chunks among the first screen's, by name, sorted: none, when all is well. */
export function hintedOnFirstScreen(imports, entries, isHinted) {
  return [...firstScreenChunks(imports, entries)].filter(isHinted).sort()
}
