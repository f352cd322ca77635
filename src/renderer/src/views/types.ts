/** Where the app is; views navigate by returning a new route. */
export type Route =
  | { view: 'datasets' }
  | { view: 'items'; datasetId: number }
  | { view: 'annotate'; datasetId: number; targetId?: number; itemId?: number }
  | { view: 'units'; datasetId: number; itemId?: number }
  | { view: 'agreement'; datasetId: number }
  | { view: 'judges'; datasetId?: number }
  | { view: 'compare'; datasetId: number }
  | { view: 'project'; datasetId: number }
  | { view: 'settings' }

export interface ViewProps {
  /** The dataset the person is working on, when one is chosen. */
  datasetId: number | null
  /** Who is labelling (chosen at start); null until chosen. */
  annotatorId: number | null
  navigate(route: Route): void
  /** Opens the app's own "Who is labelling?" chooser (one for the whole app, so a name added there is known everywhere at once). */
  chooseAnnotator(): void
}
