// The import rules of .dependency-cruiser.cjs, checked over a source folder.
//
// dependency-cruiser reads TypeScript through the TypeScript compiler's JavaScript API, which the
// project's TypeScript 7 (a native compiler) no longer ships. So each .ts/.tsx file is first turned
// into plain JavaScript by esbuild (the transpiler tsx already brings), in a scratch copy under
// out/, and dependency-cruiser checks the copy. Type imports are kept as plain imports first, so a
// circle or a forbidden import made only of types is caught too. Line numbers are not kept; the
// report names the source files.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative, sep } from 'node:path'
import { cruise } from 'dependency-cruiser'
import { transform } from 'esbuild'

const require = createRequire(import.meta.url)

/** `import type {…}`, `import { type A, b }` and `export type {…} from` become plain imports. */
export function keepTypeImports(source) {
  return source.replace(/^(import|export)\b[^;'"=()]*?\bfrom\s*['"][^'"\n]+['"]/gms, (statement) =>
    statement.replace(/^(import|export)\s+type\s+/, '$1 ').replace(/([{,]\s*)type\s+(?=[\w$])/g, '$1'),
  )
}

function sourceFiles(dir) {
  const out = []
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) out.push(...sourceFiles(path))
    else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(path)
  }
  return out
}

const posix = (p) => p.split(sep).join('/')

/**
 * Checks `folders` (relative to `root`) against `rules` (default: the project's config). Returns
 * how many modules were checked (so an empty answer cannot hide an empty check) and the
 * violations, each naming the source files as they are in the tree.
 */
export async function checkDependencies({ root, folders, rules }) {
  const config = rules ?? require(join(root, '.dependency-cruiser.cjs'))
  const scratch = join(root, 'out', `.depcheck-${process.pid}-${Date.now()}`)
  const names = new Map()
  try {
    await Promise.all(
      folders.flatMap((folder) =>
        sourceFiles(join(root, folder)).map(async (file) => {
          const rel = posix(relative(root, file))
          const tsx = rel.endsWith('.tsx')
          const { code } = await transform(keepTypeImports(readFileSync(file, 'utf8')), {
            loader: tsx ? 'tsx' : 'ts',
            jsx: 'preserve',
            // Imports that are only types would be dropped otherwise.
            tsconfigRaw: { compilerOptions: { verbatimModuleSyntax: true } },
          })
          const copy = rel.replace(/\.tsx?$/, tsx ? '.jsx' : '.js')
          names.set(copy, rel)
          mkdirSync(dirname(join(scratch, copy)), { recursive: true })
          writeFileSync(join(scratch, copy), code)
        }),
      ),
    )
    const result = await cruise(folders, {
      baseDir: scratch,
      ruleSet: { forbidden: config.forbidden },
      ...config.options,
      validate: true,
    })
    const original = (p) => names.get(p) ?? p
    const violations = result.output.summary.violations.map((v) => ({
      rule: v.rule.name,
      from: original(v.from),
      to: original(v.to),
      ...(v.cycle ? { cycle: v.cycle.map((c) => original(c.name)) } : {}),
    }))
    return { checked: names.size, violations }
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

/** One line per violation, for the terminal. */
export function describe(v) {
  return v.cycle ? `${v.rule}: ${[v.from, ...v.cycle].join(' → ')}` : `${v.rule}: ${v.from} → ${v.to}`
}
