import type { Command } from 'commander'

/** Registers the `judge` command(s) on the CLI. */
export function registerJudgeCommands(_program: Command): void {}
