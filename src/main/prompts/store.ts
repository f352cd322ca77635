// prompts/ owns the stored prompt templates: every saved version, checked before it is kept.

import { createHash } from 'node:crypto'
import { z } from 'zod'
import { checkTemplates, DEFAULT_TEMPLATES, TEMPLATE_NAMES, type TemplateName } from '../judges/templates'
import type { Db } from '../store/connection'
import { now, parseJson } from '../store/repos/rows'

const Body = z.object({ system: z.string().optional(), user: z.string() })

export interface PromptTemplate {
  id: number
  name: string
  version: number
  /** The method family the template belongs to (the part of its name before the first dot). */
  method: string
  system?: string
  user: string
  createdAt: string
}

interface Row {
  id: number
  name: string
  version: number
  method: string
  body: string
  created_at: string
}

function toTemplate(row: Row): PromptTemplate {
  const body = parseJson(Body, row.body, 'prompt_templates.body')
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    method: row.method,
    ...(body.system !== undefined ? { system: body.system } : {}),
    user: body.user,
    createdAt: row.created_at,
  }
}

export function methodOfTemplate(name: string): string {
  return name.split('.')[0] ?? name
}

/**
 * Built-in templates of earlier releases, by the SHA-256 of the body they were stored with. Those
 * asked for a function call whatever path the request took; the current ones say it with
 * `{{answer_by}}` (judges/templates.ts answerBy).
 */
const FORMER_DEFAULTS: Partial<Record<TemplateName, readonly string[]>> = {
  'facts.generate': ['400e1056f2eb8a7290f574171ed8f41ca69859647e1183828bc7ea4ed04341f0'],
  'questions.generate': ['5913e785b400876801914df5770eac7f67549d8964dd01cbfe08db02180bf775'],
  faaf: ['36d9b0505e350c5f0bcfec01d384317ab3fcd48fb8e6fcb24c23de964d5e5c12'],
  'refchecker.extract': ['ca601d4b80c7472b0df38f992b99f99fca3d1f3bd85d4f09de414227f4e3c7f8'],
  'refchecker.check-batched': ['2aa167b3aa8f80c423cb4f2bdd3995bf10f0ff2d8e85f49e7920d71eaeb02597'],
  'dcr.dce': ['2262b8a16bd7f20f5bbaaf958be3a9a21ad044569662be5b1672a15658474384'],
  'dcr.amc': ['86c102b165b7e28c09a614c34fa4cdf4c625f30700a9fd61b328650f3e776714'],
  'dcr.rai': [
    'ed56f2486acde4cc87b5cd7f8533dc202f462daa714e55ecff0fc14fd162dc2f',
    // Asked for every sentence to agree, leaving open what to do with one the check failed on.
    '9b2704b179b6aca4dbb1f7c7687ffc465cf3a48f18b606737d64ed9140775ac3',
  ],
  holistic: ['5e571583170f7a05949228e864dd07a969c8ce4095c422832d1791e36f74f965'],
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex')

/**
 * Stores the built-in templates as version 1 of each name not yet in the workspace. Existing
 * rows are never touched: once stored, templates are the person's to edit. A template still at
 * the version 1 it was seeded with, from an earlier release's built-in text, was never edited:
 * the current built-in text becomes its next version (the old one stays, runs point at it).
 */
export function seedTemplates(db: Db): void {
  const has = db.prepare('SELECT 1 FROM prompt_templates WHERE name = ? LIMIT 1')
  const ins = db.prepare(
    'INSERT INTO prompt_templates (name, version, method, body, created_at) VALUES (?, ?, ?, ?, ?)',
  )
  const latest = db.prepare(
    'SELECT version, body FROM prompt_templates WHERE name = ? ORDER BY version DESC LIMIT 1',
  )
  const seeded = (name: TemplateName): boolean => {
    const former = FORMER_DEFAULTS[name]
    if (!former) return false
    const row = latest.get(name) as { version: number; body: string } | undefined
    return row?.version === 1 && former.includes(sha256(row.body))
  }
  // Decided once per name: a missing template gets version 1, an unedited seeded one version 2.
  const writes = TEMPLATE_NAMES.flatMap((name) =>
    !has.get(name) ? [{ name, version: 1 }] : seeded(name) ? [{ name, version: 2 }] : [],
  )
  if (writes.length === 0) return
  db.transaction(() => {
    for (const { name, version } of writes)
      ins.run(name, version, methodOfTemplate(name), JSON.stringify(DEFAULT_TEMPLATES[name]), now())
  })()
}

/** The newest version of every template (seeding the defaults first). */
export function latestTemplates(db: Db): PromptTemplate[] {
  seedTemplates(db)
  const rows = db
    .prepare(
      `SELECT p.* FROM prompt_templates p
       WHERE p.version = (SELECT MAX(version) FROM prompt_templates q WHERE q.name = p.name) ORDER BY p.name`,
    )
    .all() as Row[]
  return rows.map(toTemplate)
}

export function templateHistory(db: Db, name: string): PromptTemplate[] {
  seedTemplates(db)
  const rows = db
    .prepare('SELECT * FROM prompt_templates WHERE name = ? ORDER BY version DESC')
    .all(name) as Row[]
  return rows.map(toTemplate)
}

/** An edit makes a new version; earlier versions stay, since finished runs point at them. */
export function saveTemplate(db: Db, input: { name: string; system?: string; user: string }): PromptTemplate {
  const body = { ...(input.system?.trim() ? { system: input.system } : {}), user: input.user }
  const problems = checkTemplates({ [input.name]: body })
  if (problems.length > 0) throw new Error(problems.join('; '))
  seedTemplates(db)
  return db.transaction(() => {
    const { v } = db
      .prepare('SELECT COALESCE(MAX(version), 0) AS v FROM prompt_templates WHERE name = ?')
      .get(input.name) as { v: number }
    const info = db
      .prepare(
        'INSERT INTO prompt_templates (name, version, method, body, created_at) VALUES (?, ?, ?, ?, ?)',
      )
      .run(input.name, v + 1, methodOfTemplate(input.name), JSON.stringify(body), now())
    return toTemplate(
      db.prepare('SELECT * FROM prompt_templates WHERE id = ?').get(info.lastInsertRowid) as Row,
    )
  })()
}

/** The snapshot a run stores: every template's newest body and its version. */
export function templateSnapshot(db: Db): Record<string, { version: number; system?: string; user: string }> {
  const out: Record<string, { version: number; system?: string; user: string }> = {}
  for (const t of latestTemplates(db))
    out[t.name] = {
      version: t.version,
      ...(t.system !== undefined ? { system: t.system } : {}),
      user: t.user,
    }
  return out
}
