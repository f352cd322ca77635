/**
 * How long a browser test lets one step take before it calls the step hung. A limit here is not a
 * check on speed: it only has to be longer than the step can take when nothing is wrong, and on
 * CI that means the suite run twice at once on 2 cores (a load average of 30). There a page's
 * first load, which parses the whole renderer bundle, took more than 12 s; a view loaded on first
 * use, or a save that queues behind other writes, can take as long. A step that hits the limit
 * names what it waited for, well inside the test's own timeout.
 */
export const STEP_MS = 60_000

/** A step that does heavy work of its own at that load: an import of thousands of rows. */
export const HEAVY_STEP_MS = 150_000

/** A browser test is many steps: only one that hangs runs it out. */
export const TEST_MS = 300_000
