/**
 * Why a probe's "no" is recorded as a yes, or null when what was recorded is what the probe saw.
 * A model that answers in text when merely offered a function, but calls it when made to, is
 * recorded as having tools: runs always force the call (the tool-call output path needs tools and
 * forced tool choice). Without this the "no" and the recorded capabilities read as a
 * contradiction. `models probe` and the model panel's Detect both say it.
 */
export function probeCaveat(
  result: { capability: string; honoured: boolean },
  recorded: { tools: boolean },
): string | null {
  if (result.capability === 'tools' && !result.honoured && recorded.tools)
    return 'when free to choose; tools is recorded all the same, because it calls the function when made to, and runs always make it'
  return null
}
