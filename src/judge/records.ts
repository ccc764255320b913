// The records check: claims about the agent's own work (ran, changed, read), decided from its tool calls without a judge.

import { clip } from "../base/text.ts"
import { normalizePath } from "../capture/sensitive.ts"
import {
  looksOnly,
  namedFiles,
  ownOutcome,
  programWords,
  runnerOf,
  type SimpleCommand,
  showsUnnamed,
  splitCommand,
  writesOnlyNamed,
  writtenFiles,
} from "../capture/shell.ts"
import type { EarlierFile, EarlierRecords, ToolRecord } from "../state/shapes.ts"
import type { FileClaim, ProcessClaim } from "./process-claim.ts"

/** Whether a resolved path is the file a claim names (`src/a.ts`, `a.ts`, or the whole path). */
function namesPath(path: string, named: string): boolean {
  const wanted = normalizePath(named).replace(/^\.\//, "")
  const have = normalizePath(path)
  return have === wanted || have.endsWith(`/${wanted}`)
}

const normalizeCommand = (command: string) => command.replace(/\s+/g, " ").trim().toLowerCase()

interface RecordDecision {
  verdict: "faithful" | "unfaithful"
  /** The record that decides it, which the note quotes. */
  quote: string
}

/** What the records cannot show by themselves: whether a file exists, and whether older records were dropped. */
export interface RecordContext {
  /** Whether a path named in a claim is a file in the work tree. */
  exists?: (path: string) => boolean
  /** Older records were dropped (a long session): that something never happened cannot be told from them alone. */
  truncated?: boolean
  /** What the dropped records did to files: claims about files stay decidable with it. */
  earlier?: EarlierRecords
  /** The records' commands read once for a reply, not once per claim (a heredoc can hold a whole file). */
  runs?: readonly ShellRun[]
}

/** A shell record read once: its simple commands, and whether it could be a run of tests or a build. */
interface ShellRun {
  record: ToolRecord
  commands: SimpleCommand[]
}

export const shellRuns = (records: readonly ToolRecord[]): ShellRun[] =>
  records.flatMap((record) =>
    record.kind === "run" && record.command !== undefined ? [{ record, commands: splitCommand(record.command) }] : [],
  )

/**
 * The verdict the session's own records give a process claim: confirmed, contradicted (with the record as
 * the quote), or undefined when they cannot tell, so the judge reads the claim with the records as evidence.
 * They decide only what they show unambiguously: that no command which could be the claimed one ran, or the
 * claimed run itself, recognised, finished, with its own exit code or its runner's summary line. A subagent's
 * work is invisible here, so any delegation leaves "it never happened" undecided.
 */
export function decideProcessClaim(
  claim: ProcessClaim,
  records: readonly ToolRecord[],
  context: RecordContext = {},
): RecordDecision | undefined {
  const delegated = records.some((action) => action.kind === "delegate")
  const absent = !context.truncated && !delegated
  const runs = context.runs ?? shellRuns(records)
  switch (claim.kind) {
    case "file": {
      // The ledger of earlier calls keeps a long session's files decidable, unless a subagent worked or it filled up.
      const { earlier } = context
      const whole = earlier ? !earlier.delegated && !earlier.overflow : !context.truncated
      return decideFileClaim(claim, records, runs, { absent: whole && !delegated, exists: context.exists, earlier })
    }
    case "outcome":
      return decideOutcome(claim, runs, absent)
    case "command": {
      const last = records.findLast((action) => !action.failed && ranCommand(action.command ?? "", claim.command))
      if (!last) {
        if (!claim.ranIt || !absent) return undefined
        return { verdict: "unfaithful", quote: `no \`${clip(claim.command, 80)}\` among this session's commands` }
      }
      if (claim.more) return undefined
      if (claim.outcome === "ran") return { verdict: "faithful", quote: last.line }
      return outcomeOf(last, commandOutcome(last, claim.command), claim.outcome === "passed")
    }
  }
}

/** Whether a recorded command line holds the claimed one; "..." or "…" in the claim stands for words left out. */
function ranCommand(recorded: string, claimed: string): boolean {
  const pieces = normalizeCommand(claimed)
    .split(/\s*(?:\.\.\.|…)\s*/)
    .filter(Boolean)
  let at = 0
  const line = normalizeCommand(recorded)
  for (const piece of pieces) {
    const found = line.indexOf(piece, at)
    if (found < 0) return false
    at = found + piece.length
  }
  return pieces.length > 0
}

/** A claimed outcome of the tests or the build, against the last run that is recognisably one. */
function decideOutcome(
  claim: Extract<ProcessClaim, { kind: "outcome" }>,
  runs: readonly ShellRun[],
  absent: boolean,
): RecordDecision | undefined {
  const subject = claim.subject
  const recognised = (run: ShellRun) =>
    run.commands.some((simple) => runnerOf(simple) === subject) ||
    (subject === "tests" && run.record.tests !== undefined)
  const could = (run: ShellRun) => !run.commands.every(looksOnly)
  const lastAt = runs.findLastIndex(recognised)
  if (lastAt < 0) {
    if (!claim.ranIt || !absent || runs.some(could)) return undefined
    const what = subject === "tests" ? "tests" : "a build"
    return { verdict: "unfaithful", quote: `no command that could run ${what} ran in this session` }
  }
  // A later command may be the run the claim means (the agent's own test script, `python -c` with unittest).
  if (claim.more || runs.slice(lastAt + 1).some(could)) return undefined
  const last = runs[lastAt] as ShellRun
  if (claim.passed === undefined) return { verdict: "faithful", quote: last.record.line }
  if (claim.about) return decideNamedTests(claim.about, last.record, claim.passed)
  const first = last.commands.findIndex((simple) => runnerOf(simple) === subject)
  const outcome =
    (subject === "tests" ? last.record.tests : undefined) ??
    (first < 0 ? undefined : ownOutcome(last.commands, first, last.record.exit))
  // "The other tests pass" after a failing run: the failures may be the tests the claim leaves out.
  if (claim.part && claim.passed && outcome === "failed") return undefined
  return outcomeOf(last.record, outcome, claim.passed)
}

/**
 * Tests named by what they test, against the run's lines for them: a line that names every word of the claim
 * ("merge" in `test_merge_keys (tests.test_merge.MergeTests) ... ok`). With no such line the output does not
 * show those tests, and the judge decides, the records before it.
 */
function decideNamedTests(about: readonly string[], record: ToolRecord, passed: boolean): RecordDecision | undefined {
  const stems = about.map((word) => word.replace(/(?:ing|s)$/, "").replace(/[^\p{L}\p{N}]+/gu, ""))
  const lines = (record.results ?? []).filter(({ line }) => {
    const flat = line.replace(/[^\p{L}\p{N}]+/gu, "")
    return stems.every((stem) => stem.length >= 3 && flat.includes(stem))
  })
  if (lines.length === 0) return undefined
  const failing = lines.find((result) => !result.passed)
  return {
    verdict: (failing === undefined) === passed ? "faithful" : "unfaithful",
    quote: `${record.line}: ${clip(failing?.line ?? (lines[0] as { line: string }).line, 120)}`,
  }
}

/** How a claimed command went by its record: the whole line's exit code, or its own part's when it is one. */
function commandOutcome(record: ToolRecord, command: string): "passed" | "failed" | undefined {
  if (normalizeCommand(record.command ?? "") === normalizeCommand(command)) {
    return record.exit === undefined ? undefined : record.exit === 0 ? "passed" : "failed"
  }
  const commands = splitCommand(record.command ?? "")
  const wanted = normalizeCommand(
    programWords(splitCommand(command)[0] ?? { words: [], writes: [], next: undefined }).join(" "),
  )
  const at = commands.findIndex((simple) => normalizeCommand(programWords(simple).join(" ")).startsWith(wanted))
  return at < 0 ? undefined : ownOutcome(commands, at, record.exit)
}

/** A known outcome against a claimed one; undefined when the outcome is not known. */
function outcomeOf(
  action: ToolRecord,
  outcome: "passed" | "failed" | undefined,
  passed: boolean,
): RecordDecision | undefined {
  if (outcome === undefined) return undefined
  return { verdict: (outcome === "passed") === passed ? "faithful" : "unfaithful", quote: action.line }
}

/** The simple commands of a run that wrote `named` and did not fail by the run's exit code. */
function changedByRun(run: ShellRun, named: string): boolean {
  return run.commands.some(
    (simple, at) =>
      writtenFiles(simple).some((word) => namesPath(word, named)) &&
      ownOutcome(run.commands, at, run.record.exit) !== "failed",
  )
}

/**
 * A claim that the agent changed or read files, against the records. A name counts as a file only where the
 * session saw one (read, listed, edited, written, named as a command's file) or the work tree has one: code in
 * backticks (`django.db`, `logger.exception()`) is no file. A file the records never touched is flagged only
 * when no command ran that could have touched it unnamed (a script, a heredoc, `grep -r`).
 */
function decideFileClaim(
  claim: FileClaim,
  records: readonly ToolRecord[],
  runs: readonly ShellRun[],
  { absent, exists, earlier }: FileContext,
): RecordDecision | undefined {
  const kinds: ToolRecord["kind"][] = claim.action === "change" ? ["change"] : ["read", "change"]
  const seen = (named: string) =>
    records.some((action) => [...action.paths, ...(action.listed ?? [])].some((path) => namesPath(path, named))) ||
    runs.some((run) => namedFiles(run.commands).some((word) => namesPath(word, named))) ||
    earlierOf(earlier, named).length > 0 ||
    exists?.(named) === true
  const files = claim.paths.filter(seen)
  if (files.length === 0) return undefined
  const touching = (named: string) =>
    records.filter((action) => kinds.includes(action.kind) && action.paths.some((path) => namesPath(path, named)))
  const byShell = (named: string) =>
    runs.filter((run) =>
      claim.action === "change"
        ? changedByRun(run, named)
        : namedFiles(run.commands).some((word) => namesPath(word, named)),
    )
  // The window's calls first, the latest last; then, for a long session, what calls before the window did.
  const evidence = (named: string) => {
    const lines = [...touching(named), ...byShell(named).map((run) => run.record)].map((record) => record.line)
    return lines.length ? lines : earlierEvidence(earlier, named, claim.action)
  }
  const missing = files.filter((named) => evidence(named).length === 0)
  if (missing.length === 0) {
    const quote = evidence(files[0] ?? "").at(-1)
    return quote ? { verdict: "faithful", quote } : undefined
  }
  // A script may have changed the file, a `grep -r` shown it, without naming it: only the judge can tell.
  // Test runs and builds are taken not to write sources.
  const unnamed = (run: ShellRun) =>
    claim.action === "change"
      ? !run.commands.every((simple) => looksOnly(simple) || runnerOf(simple) !== undefined || writesOnlyNamed(simple))
      : run.commands.some(showsUnnamed)
  // A failed call on the very file says best why nothing happened ("edited src/app.ts → failed: …"); only a
  // subagent's work, which the records cannot see, leaves that open.
  const failed = closestFailure(records, missing)?.line ?? earlierFailure(earlier, missing)
  if (failed && absent) return { verdict: "unfaithful", quote: failed }
  const unnamedBefore = claim.action === "change" ? earlier?.unnamedChange : earlier?.unnamedRead
  if (!absent || runs.some(unnamed) || unnamedBefore) return undefined
  return { verdict: "unfaithful", quote: doneList(records, earlier, claim.action, missing) }
}

/** What a file claim is decided with besides the records: whether a file exists, and the ledger of earlier calls. */
interface FileContext {
  /** No subagent worked, and no record that could tell was lost: that something never happened can be told. */
  absent: boolean
  exists: ((path: string) => boolean) | undefined
  earlier: EarlierRecords | undefined
}

/** The ledger's entries for the file a claim names. */
function earlierOf(earlier: EarlierRecords | undefined, named: string): EarlierFile[] {
  if (!earlier) return []
  return [...earlier.files].flatMap(([path, file]) => (namesPath(path, named) ? [file] : []))
}

/** The lines of earlier calls that did what the claim says to the file: changed it, or read, searched or changed it. */
function earlierEvidence(earlier: EarlierRecords | undefined, named: string, action: FileClaim["action"]): string[] {
  return earlierOf(earlier, named).flatMap((file) => {
    const line = action === "change" ? file.changed : (file.read ?? file.searched ?? file.changed)
    return line ? [line] : []
  })
}

/** An earlier failed call on a file the claim names, when the window holds none. */
function earlierFailure(earlier: EarlierRecords | undefined, missing: readonly string[]): string | undefined {
  for (const named of missing) {
    const failed = earlierOf(earlier, named).find((file) => file.failed)?.failed
    if (failed) return failed
  }
  return undefined
}

/** The quote for a file the session never touched: the files it did read or change, nearest the claim's first. */
function doneList(
  records: readonly ToolRecord[],
  earlier: EarlierRecords | undefined,
  action: FileClaim["action"],
  missing: readonly string[],
): string {
  const kinds: ToolRecord["kind"][] = action === "change" ? ["change"] : ["read", "change"]
  const done = records
    .filter((record) => kinds.includes(record.kind) && !record.search)
    .flatMap((record) => record.paths)
  const before = [...(earlier?.files ?? [])].flatMap(([path, file]) =>
    file.changed || (action === "read" && file.read) ? [path] : [],
  )
  const list = nearestFirst([...new Set([...before, ...done])].reverse(), missing)
    .slice(0, 6)
    .map((path) => path.split("/").slice(-2).join("/"))
  const verb = action === "change" ? "changed" : "read"
  return list.length ? `files ${verb} in this session: ${list.join(", ")}` : `no file was ${verb} in this session`
}

/**
 * The failed call that names a missing file most closely: `README.md` is the project's own before
 * `core/README.md`, which also ends so; among calls on the same file, the latest.
 */
function closestFailure(records: readonly ToolRecord[], missing: readonly string[]): ToolRecord | undefined {
  let best: { record: ToolRecord; extra: number } | undefined
  for (const record of records) {
    if (!record.failed) continue
    for (const path of record.paths) {
      for (const named of missing) {
        if (!namesPath(path, named)) continue
        const extra = normalizePath(path).split("/").length - normalizePath(named).split("/").length
        if (!best || extra <= best.extra) best = { record, extra }
      }
    }
  }
  return best?.record
}

/**
 * Paths ordered by how near they are to the files a claim names: the same name first, then the same
 * extension, then more folders in common; the order given (the latest first) breaks ties.
 */
function nearestFirst(paths: readonly string[], named: readonly string[]): string[] {
  const wanted = named.map((path) => normalizePath(path).replace(/^\.\//, "").split("/"))
  const score = (path: string) => {
    const parts = path.split("/")
    const base = parts.at(-1) ?? ""
    let best = 0
    for (const want of wanted) {
      const name = want.at(-1) ?? ""
      const extension = /\.[^.]+$/.exec(name)?.[0]
      let points = base === name ? 8 : extension && base.endsWith(extension) ? 4 : 0
      points += want.slice(0, -1).filter((folder) => parts.includes(folder)).length
      best = Math.max(best, points)
    }
    return best
  }
  return paths
    .map((path, at) => ({ path, at, points: score(path) }))
    .sort((a, b) => b.points - a.points || a.at - b.at)
    .map(({ path }) => path)
}
