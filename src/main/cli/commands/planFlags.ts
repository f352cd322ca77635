import type { z } from 'zod'
import { type Plan, PlanInput } from '../../../shared/contract/projects'
import { CliError, EXIT } from '../util'

/** The flags of `assign` that change a plan; every one may be left out. */
export interface PlanFlags {
  k?: string
  policy?: string
  seed?: string
  annotators?: string
  controlRate?: string
  hourlyRate?: string
}

/** The word that clears an hourly rate (`--hourly-rate none`, `--annotators ana:none`). */
const NONE = 'none'

// The ranges come from the contract's own schema, so a message cannot name a range the app
// does not enforce.
const K = PlanInput.shape.k.unwrap()
const SEED = PlanInput.shape.seed.unwrap()
const CONTROL_RATE = PlanInput.shape.controlRate.unwrap()
const HOURLY_RATE = PlanInput.shape.hourlyRate.unwrap().unwrap()
const PERSON_RATE = PlanInput.shape.annotators.unwrap().element.shape.hourlyRate.unwrap().unwrap()

function rangeOf(field: z.ZodNumber): string {
  const kind = field.isInt ? 'a whole number' : 'a number'
  const min = field.minValue ?? -Infinity
  const max = field.maxValue ?? Infinity
  if (Number.isFinite(min) && Number.isFinite(max)) return `${kind} from ${min} to ${max}`
  if (Number.isFinite(min)) return `${kind} of at least ${min}`
  return kind
}

/** A flag's number checked by the plan field it sets; a value out of range is a usage error. */
function numberFor(flag: string, raw: string, field: z.ZodNumber, extra = ''): number {
  const n = raw.trim() === '' ? Number.NaN : Number(raw)
  if (!field.safeParse(n).success)
    throw new CliError(`${flag} must be ${rangeOf(field)}${extra}, got "${raw}"`, EXIT.usage)
  return n
}

function rateFor(flag: string, raw: string, field: z.ZodNumber): number | null {
  return raw.trim() === NONE ? null : numberFor(flag, raw, field, ` (or ${NONE})`)
}

/**
 * "ana:30,ben,cara:none" → names with hourly rates. A name given without a rate keeps the rate
 * the plan has for it, so adding a person does not wipe the others' rates; `:none` clears one.
 */
function annotatorList(raw: string, current: Plan['annotators']): PlanInput['annotators'] {
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => {
      const [name = '', rate] = entry.split(':').map((s) => s.trim())
      const kept = current.find((a) => a.name === name)?.hourlyRate ?? null
      return {
        name,
        hourlyRate:
          rate === undefined ? kept : rateFor(`the rate of ${name} in --annotators`, rate, PERSON_RATE),
      }
    })
}

const PLAN_FLAGS = ['k', 'policy', 'seed', 'annotators', 'controlRate', 'hourlyRate'] as const

/**
 * The plan the flags ask for, laid over the stored one: a flag left out keeps the plan's value,
 * so re-running `assign` to change one thing keeps the rest. Null when no flag changes anything
 * (the command then shows the plan).
 */
export function planFromFlags(flags: PlanFlags, current: Plan): PlanInput | null {
  if (PLAN_FLAGS.every((f) => flags[f] === undefined)) return null
  const policy = flags.policy ?? current.policy
  if (policy !== 'open' && policy !== 'fixed')
    throw new CliError(`--policy must be open or fixed, got "${flags.policy}"`, EXIT.usage)
  return {
    datasetId: current.datasetId,
    k: flags.k === undefined ? current.k : numberFor('--k', flags.k, K),
    policy,
    seed: flags.seed === undefined ? current.seed : numberFor('--seed', flags.seed, SEED),
    controlRate:
      flags.controlRate === undefined
        ? current.controlRate
        : numberFor('--control-rate', flags.controlRate, CONTROL_RATE),
    hourlyRate:
      flags.hourlyRate === undefined
        ? current.hourlyRate
        : rateFor('--hourly-rate', flags.hourlyRate, HOURLY_RATE),
    annotators:
      flags.annotators === undefined
        ? current.annotators.map((a) => ({ name: a.name, hourlyRate: a.hourlyRate }))
        : annotatorList(flags.annotators, current.annotators),
  }
}

const perHour = (rate: number | null) => (rate === null ? '' : ` (${rate}/h)`)

/**
 * The plan as one line, every part of it, so `assign` shows what a later change keeps; `added`
 * names the people this change brought into the workspace, so a misspelt name is seen at once.
 */
export function describePlan(dataset: string, plan: Plan, added: readonly string[] = []): string {
  if (!plan.planned)
    return `Dataset ${dataset} has no plan: everyone labels everything (set one with factlab assign --dataset ${JSON.stringify(dataset)} --k N)`
  // A laptop holds one person's share of the lead's plan: the lead's other names are not here,
  // and the seed is left out: the split arrived drawn, and packages written before the plan
  // travelled whole do not carry it.
  if (plan.fromPackage)
    return (
      `Dataset ${dataset} came from ${plan.fromPackage.annotator}'s work package; the lead's plan: k = ${plan.k}, ${plan.policy} assignment` +
      (plan.controlRate > 0 ? `, ${Math.round(plan.controlRate * 100)}% controls` : ', no controls') +
      ` (change it in the lead's workspace)`
    )
  return (
    `Plan for dataset ${dataset}: k = ${plan.k}, ${plan.policy} assignment` +
    (plan.policy === 'fixed' ? ` (seed ${plan.seed})` : '') +
    (plan.annotators.length
      ? `, annotators ${plan.annotators.map((a) => `${a.name}${perHour(a.hourlyRate)}`).join(', ')}`
      : ', any annotator') +
    (plan.controlRate > 0 ? `, ${Math.round(plan.controlRate * 100)}% controls` : ', no controls') +
    (plan.hourlyRate === null ? '' : `, hourly rate ${plan.hourlyRate}`) +
    (added.length
      ? `\nNew in this workspace: ${added.join(', ')} (not known before; check the spelling)`
      : '')
  )
}
