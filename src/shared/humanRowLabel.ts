/**
 * The one name a row of the humans-as-judges figures goes by in Compare, the reports and their
 * charts: a person is "(human)", a dataset's own reference labels (a source, such as a release's
 * raters) "(reference labels)".
 */
export function humanRowLabel(h: { annotator: string; source?: boolean | null }): string {
  return `${h.annotator} (${h.source ? 'reference labels' : 'human'})`
}
