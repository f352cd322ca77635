/**
 * Version chains of units, by content. Editing a labelled unit makes a new row and points the
 * old one at it (`superseded_by`), so every unit row has exactly one path to the latest version
 * of its chain. Row ids differ between workspaces; texts along that path do not, so an earlier
 * version is named by its own text and the texts of the versions that came after it.
 */

/** One unit row as far as its version chain is concerned. */
export interface ChainNode {
  id: number
  text: string
  supersededBy: number | null
}

/** An earlier version of a unit, named by content relative to the latest version of its chain. */
export interface EarlierKey {
  /** The version's own text. */
  unit: string
  /** How many versions with that same text lie between it and the latest version. */
  occurrence: number
  /** Texts of the versions between it and the latest version, the next newer first. */
  newer: string[]
}

/** The rows from `id` to the latest version of its chain, `id` first. */
export function pathToLatest(nodes: ReadonlyMap<number, ChainNode>, id: number): ChainNode[] {
  const path: ChainNode[] = []
  const seen = new Set<number>()
  let node = nodes.get(id)
  while (node) {
    if (seen.has(node.id)) throw new Error(`The version chain of unit ${id} loops back on itself`)
    seen.add(node.id)
    path.push(node)
    node = node.supersededBy === null ? undefined : nodes.get(node.supersededBy)
  }
  return path
}

/** The key of the first text of a path of texts that ends with the latest version's text. */
export function earlierKey(texts: readonly string[]): EarlierKey {
  if (texts.length < 2) throw new Error('An earlier version needs a later one')
  const unit = texts[0]!
  const newer = texts.slice(1, -1)
  return { unit, newer, occurrence: newer.filter((t) => t === unit).length }
}

/** Every earlier version of `latestId` with its key, oldest row first. */
function earlierVersions(
  nodes: ReadonlyMap<number, ChainNode>,
  latestId: number,
): { id: number; key: EarlierKey }[] {
  const out: { id: number; key: EarlierKey }[] = []
  for (const node of nodes.values()) {
    if (node.id === latestId) continue
    const path = pathToLatest(nodes, node.id)
    if (path[path.length - 1]!.id === latestId)
      out.push({ id: node.id, key: earlierKey(path.map((n) => n.text)) })
  }
  return out.sort((a, b) => a.id - b.id)
}

/**
 * The earlier version of `latestId` that `key` names: the oldest row with the same text and the
 * same number of repeats of that text before the latest version. Along one chain that pair is
 * unique; it is looser than the whole path of texts on purpose, so a label still finds its
 * version when the two workspaces passed through different wordings in between. Rows made by
 * a merge are always newer, so the oldest row is the one a first merge chose, and a second
 * merge chooses it again.
 */
export function findEarlier(
  nodes: ReadonlyMap<number, ChainNode>,
  latestId: number,
  key: EarlierKey,
): number | null {
  const match = earlierVersions(nodes, latestId).find(
    (v) => v.key.unit === key.unit && v.key.occurrence === key.occurrence,
  )
  return match?.id ?? null
}

/** Where a bundled earlier version goes: an existing row, or new rows to make under `parent`. */
export type Placement =
  | { found: number }
  /** `texts` are made newest first, each superseded by the one before it (the first by `parent`). */
  | { parent: number; texts: string[] }

/**
 * Finds the version `key` names or says how to recreate it: under the nearest newer version
 * the chain already has, with the missing versions in between made too, so the chain reads as
 * it did where the label was given. A parent is only taken if the recreated row ends up with
 * the key's own repeat count, so that a second merge finds that row instead of making another.
 */
export function placeEarlier(
  nodes: ReadonlyMap<number, ChainNode>,
  latestId: number,
  key: EarlierKey,
): Placement {
  const found = findEarlier(nodes, latestId, key)
  if (found !== null) return { found }
  const latest = nodes.get(latestId)
  if (!latest) throw new Error(`Unit ${latestId} is not in this version chain`)
  const chain = [key.unit, ...key.newer]
  const repeats = (texts: readonly string[]) => texts.filter((t) => t === key.unit).length
  for (let j = 1; j < chain.length; j++) {
    const parent = findEarlier(nodes, latestId, earlierKey([...chain.slice(j), latest.text]))
    if (parent === null) continue
    const above = pathToLatest(nodes, parent).map((n) => n.text)
    if (repeats(chain.slice(1, j)) + repeats(above.slice(0, -1)) === key.occurrence)
      return { parent, texts: chain.slice(0, j).reverse() }
  }
  return { parent: latestId, texts: chain.reverse() }
}
