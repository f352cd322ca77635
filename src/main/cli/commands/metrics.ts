import type { Command } from 'commander'

/** Registers the `metrics` command(s) on the CLI. */
export function registerMetricsCommands(_program: Command): void {}
