/**
 * Frozen copy (the oracle of dashboardBlocks.ts). The dashboard's label figures in one pass over a dataset's targets and labels as columns (the
 * stored target and label blocks), not a million rows turned into objects: at a million targets
 * the row-by-row reading took the server's one thread for a minute. Pure: the caller reads.
 */

/** Target flags, as the target blocks store them (metrics/targetBlocks.ts). */
const CURRENT = 1
const CONTROL = 2

export interface TallyTargets {
  id: Int32Array
  item: Int32Array
  candidate: Int32Array
  /** CURRENT | CONTROL */
  flags: Uint8Array
}

export interface TallyLabels {
  /** In target order. */
  target: Int32Array
  annotator: Int32Array
  verdict: Int32Array
  verdicts: readonly string[]
  seconds: Float64Array
}

export interface TallyInput {
  targets: TallyTargets
  /** candidate id → variant */
  variantOf: ReadonlyMap<number, string>
  labels: TallyLabels
  sources: ReadonlySet<number>
  /** adjudicated gold by target */
  gold: ReadonlyMap<number, string>
  /** item → the annotators it is assigned to (a fixed plan), else null */
  assigned: ReadonlyMap<number, readonly number[]> | null
  k: number
}

export interface PersonTally {
  labels: number
  activeSeconds: number
  /** seconds of the labels with recorded time */
  timed: number[]
  /** labels on targets with an adjudicated decision: the person's verdicts and the gold */
  mine: string[]
  gold: string[]
  /** labels per variant */
  placed: Map<string, number>
  /** labels inside their own assignment (a fixed plan) */
  inAssignment: number
}

export interface PairTally {
  n: number
  kappa: number | null
}

export interface Tally {
  targets: number
  complete: number
  towards: number
  /** in the order of each variant's first candidate */
  byVariant: { variant: string; targets: number; complete: number }[]
  people: Map<number, PersonTally>
  /** seconds of every person's labels with recorded time (the pace) */
  timed: Float64Array
  /** (target, annotator) of people's labels on units no longer current (an older wording or deleted) */
  notCurrent: [target: number, annotator: number][]
  /** labels per source */
  sources: Map<number, number>
  /** people's labels on current controls, per person (scored as control accuracy, not work) */
  controls: Map<number, number>
  /** fixed plan: targets per annotator, and per annotator × variant */
  assignedTargets: Map<number, number>
  assignedByVariant: Map<string, number>
  pair: (a: number, b: number) => PairTally
}

const key = (a: number, variant: string) => `${a}|${variant}`

export function tallyDashboard(input: TallyInput): Tally {
  const { targets: t, labels: l, k } = input
  const n = t.id.length
  const lo = n === 0 ? 0 : t.id[0]!
  const indexOf = new Int32Array(n === 0 ? 0 : t.id[n - 1]! - lo + 1).fill(-1)
  for (let i = 0; i < n; i++) indexOf[t.id[i]! - lo] = i
  const at = (target: number) => (target < lo || target - lo >= indexOf.length ? -1 : indexOf[target - lo]!)
  const work = (i: number) => (t.flags[i]! & (CURRENT | CONTROL)) === CURRENT

  const m = l.target.length
  let maxA = 0
  for (let p = 0; p < m; p++) if (l.annotator[p]! > maxA) maxA = l.annotator[p]!
  const isSource = new Uint8Array(maxA + 1)
  for (const a of input.sources) if (a <= maxA) isSource[a] = 1
  const variantNames: string[] = []
  const variantCode = new Map<string, number>()
  const codeOfCandidate = new Map<number, number>()
  for (const [c, v] of input.variantOf) {
    let code = variantCode.get(v)
    if (code === undefined) {
      code = variantNames.push(v) - 1
      variantCode.set(v, code)
    }
    codeOfCandidate.set(c, code)
  }
  const W = variantNames.length

  // Per annotator id (ids are small and dense), so the pass over two million labels looks up no map.
  const slots: {
    labels: number
    activeSeconds: number
    timed: number[]
    mine: string[]
    gold: string[]
    placed: Float64Array
    inAssignment: number
  }[] = []
  const timedAll = new Float64Array(m)
  let timedN = 0
  const notCurrent: [number, number][] = []
  const sourceCounts = new Float64Array(maxA + 1)
  const controlCounts = new Float64Array(maxA + 1)
  const byTarget = new Int32Array(n)
  // Pairs of people on one target, as counts: a pair's κ needs its agreement and each side's marginals.
  const V = l.verdicts.length
  const pairs: { n: number; same: number; ma: Float64Array; mb: Float64Array }[][] = []

  let start = 0
  while (start < m) {
    const target = l.target[start]!
    let end = start + 1
    while (end < m && l.target[end] === target) end++
    const i = at(target)
    if (i >= 0) {
      const current = (t.flags[i]! & CURRENT) !== 0
      const isWork = work(i)
      // A target judged against the reference has no candidate, so no variant.
      const variant = codeOfCandidate.get(t.candidate[i]!) ?? -1
      const gold = isWork ? input.gold.get(target) : undefined
      const owners = input.assigned?.get(t.item[i]!)
      for (let p = start; p < end; p++) {
        const a = l.annotator[p]!
        if (isSource[a] === 1) {
          sourceCounts[a]!++
          continue
        }
        if (!current) {
          notCurrent.push([target, a])
          continue
        }
        if (!isWork) {
          controlCounts[a]!++
          continue
        }
        let me = slots[a]
        if (me === undefined) {
          me = {
            labels: 0,
            activeSeconds: 0,
            timed: [],
            mine: [],
            gold: [],
            placed: new Float64Array(W),
            inAssignment: 0,
          }
          slots[a] = me
        }
        byTarget[i] = byTarget[i]! + 1
        const s = l.seconds[p]!
        me.labels++
        me.activeSeconds += s
        if (s > 0) {
          me.timed.push(s)
          timedAll[timedN++] = s
        }
        if (variant >= 0) me.placed[variant]!++
        if (owners?.includes(a)) me.inAssignment++
        const cp = l.verdict[p]!
        if (gold !== undefined) {
          me.mine.push(l.verdicts[cp]!)
          me.gold.push(gold)
        }
        for (let q = p + 1; q < end; q++) {
          const b = l.annotator[q]!
          if (isSource[b] === 1) continue
          const cq = l.verdict[q]!
          const x = Math.min(a, b)
          const y = Math.max(a, b)
          let row = pairs[x]
          if (row === undefined) {
            row = []
            pairs[x] = row
          }
          let c = row[y]
          if (c === undefined) {
            c = { n: 0, same: 0, ma: new Float64Array(V), mb: new Float64Array(V) }
            row[y] = c
          }
          c.n++
          if (cp === cq) c.same++
          c.ma[a < b ? cp : cq]!++
          c.mb[a < b ? cq : cp]!++
        }
      }
    }
    start = end
  }
  const people = new Map<number, PersonTally>()
  slots.forEach((me, a) => {
    const placed = new Map<string, number>()
    for (let v = 0; v < W; v++) if (me.placed[v]! > 0) placed.set(variantNames[v]!, me.placed[v]!)
    people.set(a, { ...me, placed })
  })
  const countsOf = (column: Float64Array) => {
    const out = new Map<number, number>()
    column.forEach((count, a) => {
      if (count > 0) out.set(a, count)
    })
    return out
  }
  const sources = countsOf(sourceCounts)
  const controls = countsOf(controlCounts)

  let targets = 0
  let complete = 0
  let towards = 0
  const variants = new Map<string, { variant: string; targets: number; complete: number; first: number }>()
  const assignedTargets = new Map<number, number>()
  const assignedByVariant = new Map<string, number>()
  for (let i = 0; i < n; i++) {
    if (!work(i)) continue
    const done = byTarget[i]! >= k ? 1 : 0
    targets++
    complete += done
    towards += Math.min(byTarget[i]!, k)
    const c = t.candidate[i]!
    const variant = input.variantOf.get(c)
    const v = variant === undefined ? undefined : variants.get(variant)
    if (v) {
      v.targets++
      v.complete += done
      if (c < v.first) v.first = c
    } else if (variant !== undefined) variants.set(variant, { variant, targets: 1, complete: done, first: c })
    for (const a of input.assigned?.get(t.item[i]!) ?? []) {
      assignedTargets.set(a, (assignedTargets.get(a) ?? 0) + 1)
      if (variant !== undefined)
        assignedByVariant.set(key(a, variant), (assignedByVariant.get(key(a, variant)) ?? 0) + 1)
    }
  }

  return {
    targets,
    complete,
    towards,
    byVariant: [...variants.values()]
      .sort((a, b) => a.first - b.first)
      .map(({ variant, targets, complete }) => ({ variant, targets, complete })),
    people,
    timed: timedAll.subarray(0, timedN),
    notCurrent,
    sources,
    controls,
    assignedTargets,
    assignedByVariant,
    pair: (a, b) => {
      const c = a < b ? pairs[a]?.[b] : pairs[b]?.[a]
      if (!c || c.n === 0) return { n: 0, kappa: null }
      let pe = 0
      for (let v = 0; v < V; v++) pe += (c.ma[v]! / c.n) * (c.mb[v]! / c.n)
      // Both used one and the same verdict throughout: chance agreement is total and κ is 0/0.
      return { n: c.n, kappa: pe >= 1 - 1e-12 ? null : (c.same / c.n - pe) / (1 - pe) }
    },
  }
}

/** The middle value (the mean of the two middle ones for an even count), sorted as numbers in a typed array. */
export function medianOf(values: readonly number[] | Float64Array): number | null {
  if (values.length === 0) return null
  const s = Float64Array.from(values).sort()
  const mid = s.length >> 1
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2
}
