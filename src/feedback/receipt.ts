// The receipts: one JSON line per judged reply (RFE_REPORT), and what `opencode run` leaves for CI at exit.

import { clip, describeError, plural } from "../base/text.ts"
import type { Verdict } from "../config/config.ts"
import type { PartContext, ReplyReport } from "../state/session.ts"
import type { FlaggedClaim } from "../state/shapes.ts"
import type { SentNote } from "./note.ts"

/** The schema's version: a reader checks it before it reads a line. A field removed or renamed raises it. */
const RECEIPT_VERSION = 1

/** The report file holds what the agent read and claimed, redacted but private: only its owner reads it. */
const REPORT_MODE = 0o600

/** Flagged statements a run's job summary lists before it counts the rest. */
const SUMMARY_ROWS = 20

/** GitHub shows at most ten annotations of a kind per step: more would only be dropped there. */
const ANNOTATIONS = 10

/** How much of a statement and a quote an annotation shows. */
const ANNOTATION_CLAIM_CHARS = 200
const ANNOTATION_QUOTE_CHARS = 160

/** How each way of settling a claim reads in the report: one word a script can match. */
const HOW_OF_VIA = {
  judge: "judge",
  cache: "cache",
  gate: "verbatim",
  records: "records",
  "parse-fallback": "unreadable",
} as const

/**
 * How a statement was decided: by the judge, from the verdict cache, found word for word in a source, from the
 * session's tool calls, by an unreadable judge answer (counted unverifiable); or not at all: `skipped` (it states
 * nothing a source could confirm) and `not-judged` (the judge did not answer), each with `why`.
 */
type How = (typeof HOW_OF_VIA)[keyof typeof HOW_OF_VIA] | "skipped" | "not-judged"

/** One statement of a judged reply, as the report file holds it. Every text is redacted and clipped. */
interface ReceiptStatement {
  text: string
  how: How
  /** Why a statement was skipped or not judged; null when it was decided. */
  why: string | null
  verdict: Verdict | null
  /** It went into the note (or, where no note can go, into the report of flagged statements). */
  flagged: boolean
  /** Where the deciding words stand: `src/a.ts:1-40`, a URL, `tool calls of this session`. */
  source: string | null
  /** The deciding source's own words; for a contradiction, checked to stand in that source. */
  quote: string | null
  reason: string | null
  /** What the second judge said of a contradiction: `agreed`, `disagreed` or `silent`; null when none was asked. */
  second: "agreed" | "disagreed" | "silent" | null
  /** Why a contradiction was not let through: `unanchored` (its quote is in no source) or `disagreed`. */
  demoted: "unanchored" | "disagreed" | null
  /**
   * A flag disputed: the agent kept the statement with a source and the judge upheld it or not, or the user
   * marked it wrong with `/ragfaith wrong`; null when nobody disputed it.
   */
  dispute: "upheld" | "rejected" | "marked" | null
}

/** One judged reply: the line RFE_REPORT gets. */
export interface Receipt {
  v: typeof RECEIPT_VERSION
  /** When the verdicts were in, ISO 8601 UTC. */
  time: string
  mode: "run" | "serve"
  session: string
  reply: string
  /** The model that judged, and the one asked for second opinions; null when there was none. */
  judge: { model: string | null; second: string | null }
  /** `silent`, `noted`, `reported`, `dropped` (a new message came first) or `deleted` (the session went). */
  outcome: ReplyReport["outcome"]
  statements: ReceiptStatement[]
  /** Claims over RFE_MAX_CLAIMS, not judged; their text is not kept. */
  over_cap: number
  /** Files the claims named that no tool of the session read, which the check read itself (RFE_READ_NAMED). */
  read_by_check: string[]
  /** The note sent to the agent: its instruction and the notice the user sees; null when none went in. */
  note: SentNote | null
}

/** What a judged reply leaves for its receipt. */
interface ReceiptInput {
  sessionID: string
  replyID: string
  mode: "run" | "serve"
  second: string | undefined
  report: ReplyReport
  /** The statements that went into the note or the flagged report. */
  flagged: ReadonlySet<FlaggedClaim>
  /** The claims the judge did not answer for, sanitised like the rest. */
  unjudged: readonly string[]
  note: SentNote | undefined
}

const decided = (item: FlaggedClaim, flagged: boolean): ReceiptStatement => ({
  text: item.claim,
  how: HOW_OF_VIA[item.via],
  why: null,
  verdict: item.verdict,
  flagged,
  source: item.source ?? null,
  quote: item.quote ?? null,
  reason: item.reason ?? null,
  second: item.demoted === "disagreed" ? "disagreed" : (item.second ?? null),
  demoted: item.demoted ?? null,
  dispute: item.disputed ?? null,
})

const undecided = (text: string, how: "skipped" | "not-judged", why: string): ReceiptStatement => ({
  text,
  how,
  why,
  verdict: null,
  flagged: false,
  source: null,
  quote: null,
  reason: null,
  second: null,
  demoted: null,
  dispute: null,
})

/**
 * The receipt of a judged reply: the statements `/ragfaith all` lists, in the reply's order, then the claims the
 * judge left unanswered, then the sentences that state nothing to check. Only sanitised text goes in.
 */
export function buildReceipt(input: ReceiptInput): Receipt {
  const { report } = input
  return {
    v: RECEIPT_VERSION,
    time: new Date(report.at).toISOString(),
    mode: input.mode,
    session: input.sessionID,
    reply: input.replyID,
    judge: { model: report.model ?? null, second: (report.model && input.second) || null },
    outcome: report.outcome,
    statements: [
      ...report.items.map((item) => decided(item, input.flagged.has(item))),
      ...input.unjudged.map((text) => undecided(text, "not-judged", "the judge did not answer")),
      ...report.notClaims.map(({ text, why }) => undecided(text, "skipped", why)),
    ],
    over_cap: report.overCap,
    read_by_check: [...(report.readByCheck ?? [])],
    note: input.note ?? null,
  }
}

/** Text as a workflow command carries it: `%`, CR and LF escaped, so one statement stays one annotation. */
export function escapeData(text: string): string {
  return text.replace(/%/g, "%25").replace(/\r/g, "%0D").replace(/\n/g, "%0A")
}

/** A workflow command's property value: `:` and `,` escaped too, as they end a property. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, "%3A").replace(/,/g, "%2C")
}

/** One statement in words: what it is, where it conflicts, and what the source says. */
function findingText(statement: ReceiptStatement): string {
  const where = statement.source ? ` (${statement.source})` : ""
  const says = statement.quote ? `; the source says "${clip(statement.quote, ANNOTATION_QUOTE_CHARS)}"` : ""
  const why = statement.reason ? `; ${statement.reason.replace(/[.\s]+$/, "")}` : ""
  return `"${clip(statement.text, ANNOTATION_CLAIM_CHARS)}" is ${statement.verdict}${where}${says}${why}`
}

/** A table cell of the job summary: one line, no column break, no HTML the summary would render. */
function cell(text: string, max: number): string {
  return clip(text.replace(/\s+/g, " "), max)
    .replace(/\\/g, "\\\\")
    .replace(/\|/g, "\\|")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
}

/** What a run's judged replies add up to, kept bounded: the first flagged statements and counts of the rest. */
interface RunTally {
  replies: number
  statements: number
  shown: ReceiptStatement[]
  flagged: number
  /** Statements of each RFE_FAIL_ON verdict. */
  failing: Map<Verdict, number>
}

/** The job summary of a run: its flagged statements as a table, or one line saying every statement held up. */
function summaryOf(tally: RunTally, failOn: ReadonlySet<Verdict>, report: string | undefined): string {
  const judged = `${plural(tally.statements, "statement")} in ${plural(tally.replies, "reply", "replies")}`
  const file = report ? ` Every verdict: \`${report}\`.` : ""
  if (tally.flagged === 0)
    return `### ragfaith: no statement flagged\n\n${judged} checked against the sources.${file}\n\n`
  const rows = tally.shown.map(
    (s) =>
      `| ${failOn.has(s.verdict as Verdict) ? "✗ " : ""}${s.verdict} | ${cell(s.text, 200)} | ${cell(s.source ?? "", 80)} | ` +
      `${cell(s.quote ?? "", 160)} |`,
  )
  const more = tally.flagged - tally.shown.length
  return [
    `### ragfaith: ${plural(tally.flagged, "statement")} not supported by the sources`,
    "",
    "| Verdict | Statement | Source | The source says |",
    "| --- | --- | --- | --- |",
    ...rows,
    "",
    `${more > 0 ? `And ${plural(more, "more statement")}. ` : ""}${judged} checked.${file}`,
    "",
    "",
  ].join("\n")
}

/**
 * Owns the receipts: each judged reply appended to RFE_REPORT as one line, in one write; a file that cannot be
 * written is told once and judging goes on. In `opencode run` it also keeps the run's flagged statements for
 * `finish`, which opencode's exit calls.
 */
export function createReceipts({ config, deps, notifier }: Pick<PartContext, "config" | "deps" | "notifier">) {
  const tally: RunTally = { replies: 0, statements: 0, shown: [], flagged: 0, failing: new Map() }
  const told = new Set<string>()
  const warnOnce = (what: string, path: string, error: unknown) => {
    if (told.has(what)) return
    told.add(what)
    const message = `ragfaith: cannot write ${what} (${path}: ${describeError(error)}); judging goes on`
    notifier.log("warn", message)
    if (deps.mode === "run") deps.writeStderr(`${message}\n`)
    // A toast has two short lines: what failed and that judging goes on; the path and the error are in the log.
    else notifier.toast(`ragfaith: cannot write ${what}; judging goes on. The opencode log says why.`)
  }
  const count = (receipt: Receipt) => {
    tally.replies++
    for (const statement of receipt.statements) {
      if (statement.verdict === null) continue
      tally.statements++
      if (!config.flagVerdicts.has(statement.verdict) && !config.failOn.has(statement.verdict)) continue
      tally.flagged++
      const { verdict } = statement
      if (config.failOn.has(verdict)) tally.failing.set(verdict, (tally.failing.get(verdict) ?? 0) + 1)
      if (tally.shown.length < SUMMARY_ROWS) tally.shown.push(statement)
    }
  }
  const annotate = () => {
    const levels = tally.shown.map((s) => (config.failOn.has(s.verdict as Verdict) ? "error" : "warning"))
    tally.shown.forEach((statement, at) => {
      const level = levels[at] as string
      if (levels.slice(0, at).filter((l) => l === level).length >= ANNOTATIONS) return
      const title = escapeProperty(`ragfaith: ${statement.verdict} statement`)
      deps.writeStderr(`::${level} title=${title}::${escapeData(findingText(statement))}\n`)
    })
  }
  return {
    /** Records one judged reply; resolves once its line is written, or could not be. */
    async record(receipt: Receipt) {
      if (deps.mode === "run") count(receipt)
      if (!config.report) return
      try {
        await deps.appendText(config.report, `${JSON.stringify(receipt)}\n`, REPORT_MODE)
      } catch (error) {
        warnOnce("RFE_REPORT", config.report, error)
      }
    },
    /**
     * At the exit of `opencode run`: each flagged statement as a GitHub annotation, the job summary, and exit
     * code 1 when a verdict of RFE_FAIL_ON was given. Nothing when this copy of the plugin judged no reply.
     */
    async finish() {
      if (deps.mode !== "run" || tally.replies === 0) return
      if (config.ci.annotations) annotate()
      const summary = config.ci.summary
      if (summary) {
        await deps
          .appendText(summary, summaryOf(tally, config.failOn, config.report))
          .catch((error) => warnOnce("GITHUB_STEP_SUMMARY", summary, error))
      }
      if (tally.failing.size === 0) return
      const judged = [...tally.failing].map(([verdict, n]) => `${plural(n, "statement")} judged ${verdict}`)
      deps.writeStderr(`ragfaith: ${judged.join(", ")} (RFE_FAIL_ON): exit code 1\n`)
      deps.failExit()
    },
  }
}

export type Receipts = ReturnType<typeof createReceipts>
