// Kept apart from chartFile.ts, which needs the DOM, so that tests under Node can import it.

/** File name for a saved chart: the dataset's name made safe for any file system, then the chart. */
export function chartFileName(dataset: string, chart: string, ext: 'svg' | 'png'): string {
  // Leading dots would hide the file on Unix; a name left empty falls back to a generic one.
  const safe = (s: string) => s.replace(/[^\w.-]+/g, '_').replace(/^[_.]+|[_.]+$/g, '') || 'dataset'
  return `${safe(dataset)}-${safe(chart)}.${ext}`
}
