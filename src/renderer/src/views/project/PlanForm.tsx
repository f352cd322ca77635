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
      const m = /^(.*?)\s*:\s*([\d.]+)$/.exec(s)
      return m ? { name: m[1]!.trim(), hourlyRate: Number(m[2]) } : { name: s, hourlyRate: null }
    })
}

const named = (plan: Plan) =>
  plan.annotators.map((a) => (a.hourlyRate === null ? a.name : `${a.name}: ${a.hourlyRate}`)).join(', ')

/** The lead's plan: overlap k, policy, seed, control rate, rates and the named annotators. */
export function PlanForm({ plan, onSaved }: { plan: Plan; onSaved(): void }) {
  const [k, setK] = useState(String(plan.k))
  const [policy, setPolicy] = useState(plan.policy)
  const [seed, setSeed] = useState(String(plan.seed))
  const [rate, setRate] = useState(String(Math.round(plan.controlRate * 100)))
  const [hourly, setHourly] = useState(plan.hourlyRate === null ? '' : String(plan.hourlyRate))
  const [people, setPeople] = useState(named(plan))
  const [error, setError] = useState<string | null>(null)
  const [saved, setSaved] = useState(false)

  const edit =
    <T,>(set: (v: T) => void) =>
    (v: T) => {
      setSaved(false)
      set(v)
    }
  const save = async () => {
    setError(null)
    try {
      await api('projects.setPlan', {
        datasetId: plan.datasetId,
        k: Number(k),
        policy,
        seed: Number(seed),
        controlRate: Number(rate) / 100,
        hourlyRate: hourly.trim() === '' ? null : Number(hourly),
        annotators: parseNamed(people),
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
            onChange={(e) => edit(setPeople)(e.target.value)}
            placeholder="ana: 30, ben: 25"
          />
        </label>
      </div>
      {error && (
        <p className="error-box" role="alert">
          {error}
        </p>
      )}
      <button type="submit" className="primary">
        Save plan
      </button>
      {saved && <span className="muted"> Saved.</span>}
    </form>
  )
}
