import { useState } from 'react'
import type { Plan } from '../../../../shared/contract/projects'
import { api } from '../../api'

/** "ana: 30, ben" → names with optional hourly rates. */
export function parseNamed(text: string): { name: string; hourlyRate: number | null }[] {
  return text
    .split(/[\n,]+/)
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const colon = s.lastIndexOf(':')
      if (colon < 0) return { name: s, hourlyRate: null }
      const name = s.slice(0, colon).trim()
      const rate = s.slice(colon + 1).trim()
      if (name === '') throw new Error(`“${s}”: a name comes before the colon`)
      // "ana:" is ana without a rate; anything else after the colon must be one.
      if (rate === '') return { name, hourlyRate: null }
      if (!/^\d+(\.\d+)?$/.test(rate))
        throw new Error(`“${s}”: after the colon comes an hourly rate, a number such as 30 or 27.5`)
      return { name, hourlyRate: Number(rate) }
    })
}

const named = (plan: Plan) =>
  plan.annotators.map((a) => (a.hourlyRate === null ? a.name : `${a.name}: ${a.hourlyRate}`)).join(', ')

/** The lead's plan: overlap k, policy, seed, control rate, rates and the named annotators. */
export function PlanForm({
  plan,
  packaged = [],
  onSaved,
  justSaved = false,
}: {
  plan: Plan
  /** People handed a package of this dataset: leaving them out of the names is confirmed first. */
  packaged?: readonly string[]
  onSaved(): void
  /** The plan was saved just before this form was drawn again with it. */
  justSaved?: boolean
}) {
  const [k, setK] = useState(String(plan.k))
  const [policy, setPolicy] = useState(plan.policy)
  const [seed, setSeed] = useState(String(plan.seed))
  const [rate, setRate] = useState(String(Math.round(plan.controlRate * 100)))
  const [hourly, setHourly] = useState(plan.hourlyRate === null ? '' : String(plan.hourlyRate))
  const [people, setPeople] = useState(named(plan))
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(justSaved)
  // Names not yet in the workspace, shown once before saving adds them (a typo would add a person).
  const [newNames, setNewNames] = useState<string[] | null>(null)
  // People with a package whom the new names leave out, shown once before saving drops them (as
  // `factlab assign` asks for --drop): a fixed split is redrawn without them.
  const [dropped, setDropped] = useState<string[] | null>(null)

  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setSaved(false)
      set(v)
    }
  const save = async () => {
    setError(null)
    try {
      const annotators = parseNamed(people)
      const known = new Set((await api('workspace.annotators', {})).map((a) => a.name))
      const unknown = annotators.map((a) => a.name).filter((n) => !known.has(n))
      const leftOut = plan.annotators
        .map((a) => a.name)
        .filter((n) => packaged.includes(n) && !annotators.some((a) => a.name === n))
      const unconfirmed =
        (unknown.length > 0 && newNames?.join('\n') !== unknown.join('\n')) ||
        (leftOut.length > 0 && dropped?.join('\n') !== leftOut.join('\n'))
      if (unconfirmed) {
        setNewNames(unknown.length > 0 ? unknown : null)
        setDropped(leftOut.length > 0 ? leftOut : null)
        return
      }
      await api('projects.setPlan', {
        datasetId: plan.datasetId,
        k: Number(k),
        policy,
        seed: Number(seed),
        controlRate: Number(rate) / 100,
        hourlyRate: hourly.trim() === '' ? null : Number(hourly),
        annotators,
      })
      setSaved(true)
      onSaved()
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e))
    }
  }

  return (
    <form
      className="card plan-form"
      aria-label="Plan"
      onSubmit={(e) => {
        e.preventDefault()
        void save()
      }}
    >
      <h2>
        Plan {plan.planned ? '' : <span className="muted">(none yet: everyone labels everything)</span>}
      </h2>
      <div className="plan-grid">
        <label>
          Overlap k (annotators per target)
          <input type="number" min={1} max={100} value={k} onChange={(e) => edit(setK)(e.target.value)} />
        </label>
        <label>
          Assignment
          {/* Short options: the longer wording cut off at 1024 px; it sits under the box instead. */}
          <select
            value={policy}
            onChange={(e) => edit(setPolicy)(e.target.value as Plan['policy'])}
            aria-describedby="plan-policy-help"
          >
            <option value="open">open</option>
            <option value="fixed">fixed split</option>
          </select>
          <span className="muted small" id="plan-policy-help">
            {policy === 'open'
              ? 'Anyone takes the next target that needs labels.'
              : 'Items split among the names below, from the seed.'}
          </span>
        </label>
        <label>
          Seed (fixed split)
          <input type="number" min={0} value={seed} onChange={(e) => edit(setSeed)(e.target.value)} />
        </label>
        <label>
          Controls mixed in (%)
          <input
            type="number"
            min={0}
            max={100}
            value={rate}
            onChange={(e) => edit(setRate)(e.target.value)}
          />
        </label>
        <label>
          Hourly rate (dataset)
          <input
            type="number"
            min={0}
            step="any"
            value={hourly}
            onChange={(e) => edit(setHourly)(e.target.value)}
          />
        </label>
        <label className="plan-people">
          Annotators (name or name: hourly rate, comma separated)
          <input
            value={people}
            onChange={(e) => {
              setNewNames(null)
              setDropped(null)
              edit(setPeople)(e.target.value)
            }}
            placeholder="ana: 30, ben: 25"
          />
        </label>
      </div>
      {error && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      {newNames && (
        <p className="notice-box" role="status">
          {newNames.map((n) => `“${n}”`).join(', ')} {newNames.length === 1 ? 'is' : 'are'} not in this
          workspace yet. Save again to add {newNames.length === 1 ? 'this person' : 'these people'}, or
          correct the names.
        </p>
      )}
      {dropped && (
        <p className="notice-box" role="status" data-testid="plan-dropped">
          {dropped.join(', ')} {dropped.length === 1 ? 'was' : 'were'} handed a package of this dataset but{' '}
          {dropped.length === 1 ? 'is' : 'are'} not among the names now.{' '}
          {policy === 'fixed'
            ? 'The fixed split will be redrawn without them, and the items their package holds go to others. '
            : ''}
          Save again to drop {dropped.length === 1 ? 'them' : 'them all'}, or put the names back.
        </p>
      )}
      <button type="submit" className="primary">
        {newNames ? 'Add and save plan' : dropped ? 'Drop and save plan' : 'Save plan'}
      </button>
      {saved && <span className="muted"> Saved.</span>}
    </form>
  )
}
