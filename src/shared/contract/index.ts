import type { z } from 'zod'
import { agreementCalls } from './agreement'
import { annotateCalls } from './annotate'
import { datasetsCalls } from './datasets'
import type { CallDef } from './define'
import { exportsCalls } from './exports'
import { goldCalls } from './gold'
import { judgesCalls } from './judges'
import { metricsCalls } from './metrics'
import { projectsCalls } from './projects'
import { unitsCalls } from './units'
import { workspaceCalls } from './workspace'

/** The whole API between renderer (or browser, or test) and main: one entry per call. */
export const contract = {
  ...workspaceCalls,
  ...datasetsCalls,
  ...annotateCalls,
  ...unitsCalls,
  ...agreementCalls,
  ...judgesCalls,
  ...metricsCalls,
  ...exportsCalls,
  ...goldCalls,
  ...projectsCalls,
} satisfies Record<string, CallDef>

export type Contract = typeof contract
export type CallName = keyof Contract
export type CallInput<K extends CallName> = z.input<Contract[K]['input']>
export type CallOutput<K extends CallName> = z.infer<Contract[K]['output']>
export const CALL_NAMES = Object.keys(contract) as CallName[]

export * from './bridge'
export * from './define'
export * from './events'
