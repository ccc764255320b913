// Earlier records: what a tool call that leaves the records' window still tells about files, folded into a ledger.

import { LIMITS } from "../base/bounds.ts"
import type { EarlierFile, EarlierRecords, ToolRecord } from "../state/shapes.ts"
import {
  looksOnly,
  namedFiles,
  ownOutcome,
  runnerOf,
  showsUnnamed,
  splitCommand,
  writesOnlyNamed,
  writtenFiles,
} from "./shell.ts"

/**
 * Notes `line` as what happened to `path` (or only that it was seen). A new file past the ledger's bound is not
 * kept and the ledger says so, so that "never touched" is no longer told from it.
 */
function note(earlier: EarlierRecords, path: string, kind?: keyof EarlierFile, line?: string) {
  let file = earlier.files.get(path)
  if (!file) {
    if (earlier.files.size >= LIMITS.earlierFiles) {
      earlier.overflow = true
      return
    }
    file = {}
    earlier.files.set(path, file)
  }
  if (kind && line) file[kind] = line
}

/**
 * Folds one record that leaves the window into the ledger, the way the records check reads a record: a failed
 * call changed nothing; a change, a read, a search or a listing names its files; a command names the files it
 * writes and reads, and may touch others unnamed (a script) or show them (`grep -r`); a subagent's work is unseen.
 */
export function foldEarlier(earlier: EarlierRecords, record: ToolRecord): void {
  for (const path of record.listed ?? []) note(earlier, path)
  if (record.failed) {
    for (const path of record.paths) note(earlier, path, "failed", record.line)
    return
  }
  if (record.kind === "delegate") earlier.delegated = true
  if (record.kind === "change") for (const path of record.paths) note(earlier, path, "changed", record.line)
  if (record.kind === "read")
    for (const path of record.paths) note(earlier, path, record.search ? "searched" : "read", record.line)
  if (record.kind !== "run" || record.command === undefined) return
  const commands = splitCommand(record.command)
  commands.forEach((simple, at) => {
    if (ownOutcome(commands, at, record.exit) === "failed") return
    for (const word of writtenFiles(simple)) note(earlier, word, "changed", record.line)
  })
  for (const word of namedFiles(commands)) note(earlier, word, "read", record.line)
  const onlyNamed = (simple: (typeof commands)[number]) =>
    looksOnly(simple) || runnerOf(simple) !== undefined || writesOnlyNamed(simple)
  if (!commands.every(onlyNamed)) earlier.unnamedChange = true
  if (commands.some(showsUnnamed)) earlier.unnamedRead = true
}
