// prompts/ owns the stored prompt templates: every saved version, checked before it is kept.
import { z } from 'zod'
import { checkTemplates, DEFAULT_TEMPLATES, TEMPLATE_NAMES } from '../judges/templates'
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
 * Stores the built-in templates as version 1 of each name not yet in the workspace. Existing
 * rows are never touched: once stored, templates are the person's to edit.
 */
export function seedTemplates(db: Db): void {
  const has = db.prepare('SELECT 1 FROM prompt_templates WHERE name = ? LIMIT 1')
  const ins = db.prepare(
    'INSERT INTO prompt_templates (name, version, method, body, created_at) VALUES (?, 1, ?, ?, ?)',
  )
  db.transaction(() => {
    for (const name of TEMPLATE_NAMES) {
      if (has.get(name)) continue
      ins.run(name, methodOfTemplate(name), JSON.stringify(DEFAULT_TEMPLATES[name]), now())
    }
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
