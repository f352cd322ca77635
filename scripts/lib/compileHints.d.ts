export const COMPILE_HINT: string
export function firstScreenChunks(
  imports: ReadonlyMap<string, readonly string[]>,
  entries: readonly string[],
): Set<string>
export function hintedOnFirstScreen(
  imports: ReadonlyMap<string, readonly string[]>,
  entries: readonly string[],
  isHinted: (name: string) => boolean,
): string[]
