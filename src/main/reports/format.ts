/** Shared number formatting: reports and the Compare view print the same strings. */

export const NOT_DEFINED = 'not defined'

export function pct(x: number | null, digits = 1): string {
  return x === null || !Number.isFinite(x) ? NOT_DEFINED : `${(x * 100).toFixed(digits)}%`
}

export function num(x: number | null, digits = 3): string {
  return x === null || !Number.isFinite(x) ? NOT_DEFINED : x.toFixed(digits)
}

export function ci(iv: [number, number] | null, digits = 1): string {
  return iv === null ? '' : `${(iv[0] * 100).toFixed(digits)}–${(iv[1] * 100).toFixed(digits)}%`
}

export function pctCi(x: number | null, iv: [number, number] | null): string {
  return x === null ? NOT_DEFINED : iv === null ? pct(x) : `${pct(x)} [${ci(iv)}]`
}

export function money(x: number): string {
  return `$${x.toFixed(x < 1 ? 4 : 2)}`
}

export function pValue(p: number): string {
  return p < 0.001 ? '<0.001' : p.toFixed(3)
}
