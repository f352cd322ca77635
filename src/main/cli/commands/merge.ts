import type { Command } from 'commander'

/** Registers the `merge` command(s) on the CLI. */
export function registerMergeCommands(_program: Command): void {}
