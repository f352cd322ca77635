import type { Command } from 'commander'

/** Registers the `export` command(s) on the CLI. */
export function registerExportCommands(_program: Command): void {}
