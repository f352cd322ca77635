import type { Command } from 'commander'

/** Registers the `units` command(s) on the CLI. */
export function registerUnitsCommands(_program: Command): void {}
