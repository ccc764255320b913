// The shapes that flow through the pipeline: premises, tool records, claims, and the verdict family.
import type { Verdict } from "../config/config.ts"

export type Origin = "machine" | "web"

export interface Premise {
  id: string
  tool: string
  origin: Origin
  /** Where it came from, as the note cites it: `src/a.ts:1-40`, a URL, `search: "query"`, `$ npm test`. */
  ref: string
  /** Absolute or project path of a file premise, so an edit can retire it. */
  path: string | undefined
  text: string
  /**
   * `check` when the plugin read the file itself because a claim named it and no tool of the session had read
   * it: evidence the agent never saw, which the note and the report say so of.
   */
  readBy?: "check"
}

/** The evidence of one session: premises in arrival order, and their total size, held under the cap. */
export interface PremiseBuffer {
  premises: readonly Premise[]
  premiseChars: number
}

/** What one tool call did, as the records check reads it. */
export interface ToolRecord {
  kind: "read" | "change" | "run" | "delegate" | "other"
  /** Resolved, normalised paths the call read or changed. */
  paths: string[]
  command: string | undefined
  exit: number | undefined
  /** Its line among the tool calls of this session: what the judge sees, and what a decision quotes. */
  line: string
  /** What a test runner's summary line in a command's output says. */
  tests?: "passed" | "failed"
  /** Files a listing (glob) showed: the session saw a file there. */
  listed?: string[]
  /** Lines of a run's output that report one test each (lowercased), and whether it passed. */
  results?: Array<{ line: string; passed: boolean }>
  /** A search or listing (grep, glob): its path is where it looked, often a directory, not a file it read. */
  search?: boolean
  /** The call failed (a tool error, a refused write, a patch that did not apply): it changed nothing. */
  failed?: boolean
}

/** What calls that left the records' window did to one file, as their record lines: the latest of each kind. */
export interface EarlierFile {
  /** Read by a read tool, or named by a command. */
  read?: string
  /** Searched or listed by grep or glob: its path, which may be a folder. */
  searched?: string
  changed?: string
  /** A call on it that failed and changed nothing. */
  failed?: string
}

/**
 * What the tool calls that left the records' window still tell about files, so a long session's claims about
 * files can be decided: each file's latest read, change and failure, and what no file name shows.
 */
export interface EarlierRecords {
  files: Map<string, EarlierFile>
  /** A call may have changed files it did not name (a script, a heredoc into an interpreter). */
  unnamedChange: boolean
  /** A call may have shown files it did not name (`grep -r`, a glob in a command). */
  unnamedRead: boolean
  /** A subagent worked: what it did is in no record. */
  delegated: boolean
  /** More files than the ledger keeps: that a file was never touched can no longer be told. */
  overflow: boolean
}

/** Why a sentence of a reply is not judged; `/ragfaith` lists the reason beside each. */
export type NotAClaim = "a question" | "too short" | "a greeting or sign-off" | "an offer or advice" | "a lead-in"

export interface Claim {
  text: string
  /** Normalised form: the dedupe key within a reply and across a turn. */
  key: string
  /** The sentences just before it in the reply: what "it" or "this function" refers to. */
  before?: string
  /** The sentence as written, inline code still in backticks: commands and paths are read from it. */
  raw?: string
}

/** Why a statement was not sent in normal mode: it shares no term with any source, so none can contradict it. */
export type Unrelated = "nothing in the sources speaks to it"

/** A sentence of the reply that states nothing a source could confirm, or that no source speaks to, and why. */
export interface NotJudged {
  text: string
  why: NotAClaim | Unrelated
}

/**
 * The verdict family: what the judge says of a claim (`JudgeVerdict`), the same as it came (`RawVerdict`),
 * settled for one claim (`ClaimResult`), and shown to the agent and the user (`FlaggedClaim`). The cache keeps
 * it on disk in short keys (`CacheRecord`).
 */
export interface JudgeVerdict {
  verdict: Verdict
  /** The id of the deciding source as the judge named it (`S2`, `P`); a label once the claim is judged. */
  source: string | undefined
  /** The deciding source's own words, as the judge copied them; for a flag, checked against that source. */
  quote: string | undefined
  reason: string | undefined
}

/** How a claim was settled: too short to judge, by the tool records, from the cache, by the judge, or not at all. */
type Via = "gate" | "records" | "cache" | "judge" | "parse-fallback"

/** A verdict as the judge or the cache gave it, before the checks a flag must pass. */
export type RawVerdict = JudgeVerdict & { via: Extract<Via, "cache" | "judge" | "parse-fallback"> }

export interface ClaimResult extends JudgeVerdict {
  claim: Claim
  via: Via
  /** Why a contradiction was not let through: its quote is not in the source, or a second judge disagreed. */
  demoted?: "unanchored" | "disagreed"
  /**
   * What the second judge said of a contradiction that stands: it agreed, or it did not answer and the first
   * judge's verified quote decides. Absent when no second judge was asked.
   */
  second?: "agreed" | "silent"
  /** The file the deciding source is, when the check read it because no tool of the session had. */
  readByCheck?: string
  /**
   * A flag disputed: the agent kept the statement citing a source and the judge then upheld it (`upheld`) or
   * not (`rejected`), or the user marked the flag wrong (`marked`).
   */
  disputed?: "upheld" | "rejected" | "marked"
  /** The source the agent cited when it kept the statement. */
  cited?: string
}

/**
 * A settled claim as every output shows it: the claim as text, redacted, the judge key hidden, clipped; the
 * source named as the user would (`src/config.ts:10-40`, a URL, `tool calls of this session`); the quote the
 * verified words of that source.
 */
export type FlaggedClaim = Omit<ClaimResult, "claim"> & {
  claim: string
  /** A digest of the claim's normalised key (`statementId`): what a dispute is remembered by. */
  key?: string
}
