import type { Command } from 'commander'

/** Registers the `import` command(s) on the CLI. */
export function registerImportCommands(_program: Command): void {}
