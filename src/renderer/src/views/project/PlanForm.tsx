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
  onSaved,
  justSaved = false,
}: {
  plan: Plan
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
      if (unknown.length > 0 && newNames?.join('\n') !== unknown.join('\n')) {
        setNewNames(unknown)
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
          <select value={policy} onChange={(e) => edit(setPolicy)(e.target.value as Plan['policy'])}>
            <option value="open">open: next target that needs labels</option>
            <option value="fixed">fixed: items split among the names below</option>
          </select>
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
      <button type="submit" className="primary">
        {newNames ? 'Add and save plan' : 'Save plan'}
      </button>
      {saved && <span className="muted"> Saved.</span>}
    </form>
  )
}
