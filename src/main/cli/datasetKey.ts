import { CliError } from './util'

/**
 * What `--dataset` names: a dataset's name, or, when no dataset has that name, its number as the
 * app shows it (`3` or `#3`). One rule and one message for every command.
 */
export function pickDataset(datasets: readonly { id: number; name: string }[], key: string): number {
  const byName = datasets.find((d) => d.name === key)
  if (byName) return byName.id
  const id = /^#?(\d+)$/.exec(key.trim())?.[1]
  const byId = id === undefined ? undefined : datasets.find((d) => d.id === Number(id))
  if (byId) return byId.id
  const known = datasets.map((d) => `"${d.name}" (#${d.id})`)
  throw new CliError(
    `No dataset named "${key}" in this workspace${known.length ? `; it has ${known.join(', ')}` : ' (it has none)'}`,
  )
}
