// The note the agent gets and the notice the user sees, built from the flagged claims and sent once.

import { tallyInto } from "../base/counters.ts"
import { clip, describeError, plural, wrap } from "../base/text.ts"
import { asRecord, textOf } from "../base/unknown.ts"
import { redactSecrets } from "../capture/redact/redact.ts"
import { hideKey, scrubError } from "../capture/redact/scrub.ts"
import type { TurnLedger } from "../config/effects.ts"
import { statementId } from "../judge/disputes.ts"
import { NOTE_REASON_CHARS } from "../judge/verdict.ts"
import { markNote, type PartContext, type SessionState } from "../state/session.ts"
import type { ClaimResult, FlaggedClaim } from "../state/shapes.ts"
import { type Contrast, contrastOf } from "./contrast.ts"
import { asNotice, TOAST_CHARS } from "./notifier.ts"

/** How the agent's instruction begins: the plugin knows its own note by it, also one another instance sent. */
export const NOTE_TAG = "[ragfaith]"

/** How the notice the user sees beside a note begins: it says what the line is, not who sent it. */
const NOTICE_PREFIX = "Automatic check: "

/**
 * The widest line a user message shows whole: opencode 1.18.33 draws it at the terminal width less 7
 * columns (73 at 80), and less 49 beside the sidebar it opens above 120 columns (72 at 121). Text that breaks
 * its own lines at this width is never broken again, at any width from 80 up.
 */
export const MESSAGE_WIDTH = 72

/** The notice keeps to two lines, so it reads at a glance between the wrong reply and the correction. */
const NOTICE_LINES = 2

/** How long the flagged statement may be in the notice, longest first: the first that fits two lines wins. */
const NOTICE_CLAIM_CHARS = [70, 56, 44, 32, 24, 16, 0] as const

/** The same for the source's words; 0 leaves them out. */
const NOTICE_QUOTE_CHARS = [60, 40, 24, 0] as const

/** A source label longer than this (a long URL) is shortened, so no one word outgrows a line. */
const NOTICE_SOURCE_CHARS = [40, 28] as const

/** Shortens text at a word boundary where there is one, so the notice shows whole words. */
function clipWords(text: string, max: number): string {
  const flat = text.replace(/\s+/g, " ").trim()
  if (flat.length <= max) return flat
  const cut = flat.lastIndexOf(" ", max - 1)
  return `${(cut > max / 2 ? flat.slice(0, cut) : flat.slice(0, max - 1)).replace(/[\s,;:.]+$/, "")}…`
}

/** How much of the notice to keep: the statement's and the quote's lengths, and whether to say it tersely. */
interface NoticeFit {
  /** 0 leaves the statement out: the wrong part alone is quoted. */
  claimChars: number
  quoteChars: number
  terse: boolean
}

/** Where the flagged statements conflict: one or two sources by name, else the sources. */
function sourcesOf(items: readonly FlaggedClaim[], terse: boolean): string {
  const names = [...new Set(items.flatMap((item) => (item.source ? [item.source] : [])))]
  if (names.length === 0 || names.length > 2) return "the sources"
  const [long, short] = NOTICE_SOURCE_CHARS
  return names.map((name) => clipWords(name, terse ? short : long)).join(" and ")
}

/** Shortens a statement to `max` around its wrong part, so the part is always in what is shown. */
function clipAround(claim: string, part: string, max: number): string {
  const flat = claim.replace(/\s+/g, " ").trim()
  const at = flat.indexOf(part)
  if (flat.length <= max || at < 0 || at + part.length < max - 1) return clipWords(flat, max)
  const from = flat.indexOf(" ", at + part.length - (max - 2))
  return `…${clipWords(flat.slice(from < 0 || from > at ? at : from + 1), max - 1)}`
}

/** What a notice says in place of asking the agent: as its last sentence, and shortened before "; /ragfaith". */
interface Unasked {
  line: string
  short: string
}

/** Notes are off (RFE_NUDGE_DEPTH=0): the flags are only reported. */
const NOTES_OFF: Unasked = { line: "Notes are off, so the agent is not asked.", short: "Notes are off" }

/** The note could not be added to the session (the host refused it). */
const NOT_TOLD: Unasked = { line: "The note to the agent failed.", short: "The note to the agent failed" }

/** The most telling flagged statement for the notice: the first the sources contradict, else the first. */
function leadOf(items: readonly FlaggedClaim[]) {
  const lead = items.find((item) => item.verdict === "unfaithful") ?? items[0]
  const contrast = lead?.verdict === "unfaithful" ? contrastOf(lead.claim, lead.quote) : undefined
  return { lead, contrast }
}

/** What happens next, and how many more statements it covers; `unasked`: what is said where nobody is asked. */
function noticeTail(items: readonly FlaggedClaim[], terse: boolean, unasked: Unasked | undefined): string {
  const more = items.length - 1
  const others = terse ? `${more.toLocaleString("en")} more` : plural(more, "more statement")
  if (unasked) return more === 0 ? unasked.line : `${unasked.line.slice(0, -1)}; /ragfaith lists ${others}.`
  if (more === 0) return "Asking the agent to correct it."
  return terse
    ? `Asking the agent to fix it and ${others}; see /ragfaith.`
    : `Asking the agent to correct it and ${others}; /ragfaith lists them.`
}

/**
 * The notice's sentence for a contradicted statement whose wrong part is known: the statement (or only its
 * wrong part), the source, and the source's words in place of the wrong part where they fit.
 */
function contrastSentence(
  lead: FlaggedClaim,
  contrast: Contrast,
  items: readonly FlaggedClaim[],
  fit: NoticeFit,
  unasked: Unasked | undefined,
): string | undefined {
  const part = clipWords(contrast.claimPart, 40)
  // A statement cut to little more than its wrong part says nothing the part does not: the part alone then.
  if (fit.claimChars > 0 && fit.claimChars < part.length + 12 && lead.claim.length > fit.claimChars) return undefined
  // A wrong part with no words of the source in its place reads only inside its statement.
  if (fit.claimChars === 0 && contrast.sourcePart === undefined && fit.quoteChars > 0) return undefined
  const named = `"${fit.claimChars > 0 ? clipAround(lead.claim, contrast.claimPart, fit.claimChars) : part}"`
  const source = lead.source ? clipWords(lead.source, NOTICE_SOURCE_CHARS[fit.terse ? 1 : 0]) : "the sources"
  const words = contrast.sourcePart ?? lead.quote?.replace(/[.;,\s]+$/, "")
  const fits = words !== undefined && fit.quoteChars > 0 && (contrast.sourcePart !== undefined || fit.quoteChars >= 24)
  const which = source === "the sources" ? "which say" : "which says"
  const says = !fits
    ? fit.claimChars > 0
      ? ` on "${part}"`
      : ""
    : contrast.sourcePart !== undefined
      ? `, ${which} "${clipWords(words, fit.quoteChars)}"${fit.claimChars > 0 && !fit.terse ? `, not "${part}"` : ""}`
      : fit.claimChars > 0
        ? ` on "${part}"; it says "${clipWords(words, fit.quoteChars)}"`
        : `, ${which} "${clipWords(words, fit.quoteChars)}"`
  return `${NOTICE_PREFIX}${named} conflicts with ${source}${says}. ${noticeTail(items, fit.terse, unasked)}`
}

/** The notice's one sentence, shortened as `fit` says; undefined for a fit that does not suit it. */
function noticeSentence(items: readonly FlaggedClaim[], fit: NoticeFit, unasked?: Unasked): string | undefined {
  const { lead, contrast } = leadOf(items)
  if (lead && contrast) return contrastSentence(lead, contrast, items, fit, unasked)
  const claimChars = fit.claimChars || 16
  const claim = `"${clipWords(lead?.claim ?? "", claimChars)}"`
  if (items.length > 1) {
    const verb = items.every((item) => item.verdict === "unfaithful") ? "conflict with" : "are not backed by"
    const more = fit.terse
      ? `${(items.length - 1).toLocaleString("en")} more`
      : plural(items.length - 1, "more statement")
    const next = unasked
      ? unasked.short
      : fit.terse
        ? "The agent is asked to fix them"
        : "Asking the agent to correct them"
    return `${NOTICE_PREFIX}${claim} and ${more} ${verb} ${sourcesOf(items, fit.terse)}. ${next}; /ragfaith lists them.`
  }
  if (lead?.verdict !== "unfaithful") {
    const next = unasked?.line ?? "Asking the agent to cite one or say where it comes from."
    return `${NOTICE_PREFIX}no source backs ${claim}. ${next}`
  }
  const quote = lead.quote?.replace(/[.;,\s]+$/, "")
  const says = quote && fit.quoteChars > 0 ? `, which says "${clipWords(quote, fit.quoteChars)}"` : ""
  const next = unasked?.line ?? "Asking the agent to correct it."
  return `${NOTICE_PREFIX}${claim} conflicts with ${sourcesOf(items, fit.terse)}${says}. ${next}`
}

/**
 * The ways to fit the notice, most complete first. What is wrong stays longest: the statement is cut around
 * its wrong part, down to the part alone, while the source's words stay; they go last.
 */
const NOTICE_FITS: readonly NoticeFit[] = [
  ...NOTICE_CLAIM_CHARS.flatMap((claimChars) =>
    NOTICE_QUOTE_CHARS.filter(Boolean).flatMap((quoteChars) =>
      [false, true].map((terse) => ({ claimChars, quoteChars, terse })),
    ),
  ),
  ...NOTICE_CLAIM_CHARS.flatMap((claimChars) => [false, true].map((terse) => ({ claimChars, quoteChars: 0, terse }))),
]

/**
 * The notice between the wrong reply and the correction: that an automatic check ran, what is wrong in the
 * first flagged statement (the part the source contradicts, and the source's words for it where they fit), how
 * many more, and what happens next. At most two lines, broken here at word boundaries so the TUI never breaks
 * a word or `/ragfaith` itself. It goes in as one visible part of the note, beside the agent's instruction
 * (the TUI would put a blank line between two parts). `unasked`: what it says where the agent is not asked.
 */
export function buildNotice(items: readonly FlaggedClaim[], unasked?: Unasked): string {
  let lines: string[] = []
  for (const fit of NOTICE_FITS) {
    const sentence = noticeSentence(items, fit, unasked)
    if (sentence === undefined) continue
    lines = wrap(sentence, MESSAGE_WIDTH)
    if (lines.length <= NOTICE_LINES) break
  }
  return lines.join("\n")
}

/** A toast about flagged statements: how many, the first one shortened to fit, then `tail`, in two lines. */
function flaggedToast(items: readonly FlaggedClaim[], tail: string): string {
  const lead =
    items.length === 1 ? "1 statement looks unsupported: " : `${items.length} statements look unsupported, first: `
  const room = Math.max(12, TOAST_CHARS - lead.length - tail.length - 3)
  return `${lead}"${clip(items[0]?.claim ?? "", room)}" ${tail}`
}

/** How the note shows the agent to keep a statement it re-checked: the statement, then its source in brackets. */
const DISPUTE_EXAMPLE = "The API returns 404 for a missing id (source: docs/api.md)."

/**
 * Where a source is a file the agent never read (the check read it): the agent is told so, and to read it
 * before it answers again, so the correction rests on the file rather than on the note's quote.
 */
function unreadLine(files: readonly string[]): string {
  const named = files.map((file) => `\`${file}\``).join(", ")
  const it = files.length === 1 ? "it" : "them"
  return (
    `You did not read ${named} in this session; the check read ${files.length === 1 ? "that file" : "those files"} ` +
    `itself, and the quotes above come from ${it}. Read ${it} with your read tool before you answer again.`
  )
}

/**
 * The one note that starts the correction turn. It speaks to the agent, not the user, and asks for the
 * corrected content only, so the user reads a better answer rather than a report about a check.
 * `askProvenance` adds strict mode's request: claims no source supports need a citation or a disclosure.
 */
function buildNote(flagged: readonly FlaggedClaim[], askProvenance: boolean): string {
  const lines = flagged.map((item, index) => {
    const where = item.source ? ` [source: ${item.source}]` : " [no source supports it]"
    // The quote's own full stop stays inside it only once; the reason reads as a sentence of its own.
    const says = item.quote ? ` The source says: "${item.quote.replace(/[.;,\s]+$/, "")}".` : ""
    const reason = item.reason?.replace(/[.\s]+$/, "")
    const why = reason ? ` Reason: ${reason}.` : ""
    return `${index + 1}. "${item.claim}"${where}${says}${why}`
  })
  const unverifiable = flagged.some((item) => item.verdict === "unverifiable")
  const unread = [...new Set(flagged.flatMap((item) => (item.readByCheck ? [item.readByCheck] : [])))]
  return [
    `${NOTE_TAG} Automated source check. This note comes from a tool, not from the user.`,
    "These statements in your last reply are not supported by the sources you pulled in this session:",
    ...lines,
    ...(unread.length ? [unreadLine(unread)] : []),
    "",
    "Re-check each one against those sources, then reply to the user with only the corrected content, written as " +
      "ordinary content. Do not mention this check, flags or verdicts; do not apologise or describe the process. " +
      "If the sources do not settle a statement, say plainly that it is unconfirmed instead of inventing a correction. " +
      `If re-checking shows a statement is right as it stands, keep it: write it again as it was, ending with the file or URL that supports it, as in "${DISPUTE_EXAMPLE}". ` +
      "The user sees a short notice that this check ran; it needs no answer.",
    ...(askProvenance && unverifiable
      ? [
          "For each statement no source supports: either cite the source it rests on, or state plainly that it comes " +
            "from your own knowledge or is an inference from context.",
        ]
      : []),
  ].join("\n")
}

/** A note as it went in: the agent's instruction and the notice the user sees beside it. */
export interface SentNote {
  text: string
  notice: string
}

/** What became of flagged statements: a note went in, or they were only reported. */
interface Sent {
  outcome: "noted" | "reported"
  note: SentNote | undefined
}

/**
 * How long toasts wait once a notice has been answered, or a flagged reply was reported without one: the
 * toast box opens over the top of the conversation, where the notice and the flagged reply then stand.
 */
export const NOTICE_READ_MS = 4_000

/**
 * A message as a notice under a reply shows it: after "Automatic check:", broken at MESSAGE_WIDTH, within
 * NOTICE_LINES rows like the note's notice; a longer one (a long model name) is cut, as `/ragfaith` has it whole.
 */
function noticeRows(message: string): string {
  const told = asNotice(message)
  const [first = "", ...rest] = wrap(`${NOTICE_PREFIX}${told.charAt(0).toLowerCase()}${told.slice(1)}`, MESSAGE_WIDTH)
  const tail = rest.join(" ")
  const kept = rest.length < NOTICE_LINES ? tail : clipWords(tail, MESSAGE_WIDTH)
  return [first, ...(kept ? [kept] : [])].join("\n")
}

/**
 * Puts `rows` under the last reply as a line of the transcript that starts no turn and never reaches the model
 * (an ignored part); undo passes over it like over a note. Where it cannot be added, `instead` tells it.
 */
async function postNotice(
  { deps, notifier }: Pick<PartContext, "deps" | "notifier">,
  state: SessionState,
  rows: string,
  instead: () => void,
) {
  let result: Awaited<ReturnType<typeof deps.client.session.prompt>>
  try {
    result = await deps.client.session.prompt({
      path: { id: state.id },
      body: { noReply: true, parts: [{ type: "text", text: rows, ignored: true }] },
    })
  } catch (error) {
    result = { error: error ?? "failed" }
  }
  const messageID = textOf(asRecord(asRecord(result?.data).info).id)
  if (messageID) markNote(state, messageID)
  if (result?.error === undefined) return
  notifier.log("warn", "ragfaith: a notice could not be shown", { sessionID: state.id })
  instead()
}

/**
 * The note goes in as one user message with the agent and model of the user's last message: the agent's
 * instruction as a synthetic part, and the notice the user sees (and the timeline and export show) beside it.
 * Toasts wait until the correction has come and the notice has been read.
 */
async function injectNote(
  { config, deps, notifier, counters }: PartContext,
  state: SessionState,
  items: readonly FlaggedClaim[],
  { text, notice }: SentNote,
) {
  const user = state.lastUser
  tallyInto(counters, state.counters)("notes")
  const release = notifier.hold()
  let error: unknown
  try {
    const result = await deps.client.session.prompt({
      path: { id: state.id },
      body: {
        parts: [
          { type: "text", text, synthetic: true },
          { type: "text", text: notice },
        ],
        ...(user?.agent ? { agent: user.agent } : {}),
        ...(user?.model ? { model: user.model } : {}),
      },
    })
    error = result?.error
  } catch (thrown) {
    error = thrown ?? "unknown error"
  } finally {
    notifier.holdFor(NOTICE_READ_MS)
    release()
  }
  if (error === undefined) return
  tallyInto(counters, state.counters)("injectionFailures")
  notifier.log("warn", "ragfaith: could not inject the correction note", {
    sessionID: state.id,
    error: scrubError(describeError(error), config.judge.apiKey),
    claims: items.map((item) => item.claim),
  })
  // Told under the reply like any notice; where that fails too, one toast for the session.
  const failed = flaggedToast(items, "The agent was not told; see /ragfaith.")
  await postNotice({ deps, notifier }, state, buildNotice(items, NOT_TOLD), () =>
    notifier.toastOnce(state.toastKeys, "inject-failed", failed),
  )
}

/** Owns what follows flagged claims: one note to the agent, or a report where no note could be answered. */
export function createNoteSender(ctx: PartContext) {
  const { config, deps, notifier } = ctx

  /**
   * Where no note can be answered or notes are off: the log, and stderr in `opencode run`; in the TUI the
   * notice under the reply, as a note's would read, saying the agent is not asked.
   */
  const report = (state: SessionState, items: readonly FlaggedClaim[]) => {
    const are = items.length === 1 ? "is" : "are"
    const summary = `ragfaith: ${plural(items.length, "statement")} in the last reply ${are} not supported by the sources`
    notifier.log("warn", summary, { sessionID: state.id, claims: items })
    const lines = `${summary}:\n${items.map((item) => `  - ${item.claim} [${item.verdict}]`).join("\n")}\n`
    if (deps.mode === "run") {
      // `opencode run` has no TUI: stderr is the one place a person running it will look.
      deps.writeStderr(`${lines}  details: ${notifier.logPlace}, or run with --print-logs\n`)
      return
    }
    notifier.printReport(lines)
    notifier.holdFor(NOTICE_READ_MS)
    const toast = flaggedToast(items, "Notes are off; see /ragfaith.")
    void postNotice(ctx, state, buildNotice(items, NOTES_OFF), () => notifier.toast(toast))
  }

  return {
    /**
     * Tells the user something about the last reply under it, where a toast would open over it: a line of
     * the transcript that starts no turn and never reaches the model (an ignored part). Undo passes over it
     * like over a note. Where there is no transcript to add to (`opencode run`, opencode 2) it is a toast.
     */
    async notice(state: SessionState, message: string) {
      if (deps.mode === "run") return notifier.toast(message)
      await postNotice(ctx, state, noticeRows(message), () => notifier.toast(message))
    },
    /**
     * `opencode run` and RFE_NUDGE_DEPTH=0 only report; otherwise the note spends one step of the turn's depth.
     * Says which it was, for `/ragfaith`, and the note that went in, for the report file.
     */
    send(state: SessionState, items: readonly FlaggedClaim[], turn: TurnLedger): Sent {
      if (deps.mode === "run" || config.nudgeDepth === 0) {
        report(state, items)
        return { outcome: "reported", note: undefined }
      }
      turn.depth++
      const note = { text: buildNote(items, config.flagVerdicts.has("unverifiable")), notice: buildNotice(items) }
      void injectNote(ctx, state, items, note)
      return { outcome: "noted", note }
    },
  }
}

export type NoteSender = ReturnType<typeof createNoteSender>

export const NOTE_CLAIM_CHARS = 220

const NOTE_QUOTE_CHARS = 200

/** Text of the reply as an output shows it: secrets redacted, the judge key hidden, clipped. */
export function sanitized(text: string, max: number, apiKey: string | undefined): string {
  return clip(hideKey(redactSecrets(text), apiKey), max)
}

/**
 * Privacy applied once: the judged claims as every output (note, log, stderr, toast, report) shows them, with
 * secrets redacted, the judge key hidden, and each text clipped. No output path redacts again.
 */
export function toFlaggedItems(results: readonly ClaimResult[], apiKey: string | undefined): FlaggedClaim[] {
  const sanitize = (text: string, max: number) => sanitized(text, max, apiKey)
  return results.map((result) => ({
    claim: sanitize(result.claim.text, NOTE_CLAIM_CHARS),
    key: statementId(result.claim.key),
    verdict: result.verdict,
    source: result.source,
    quote: result.quote === undefined ? undefined : sanitize(result.quote, NOTE_QUOTE_CHARS),
    reason: result.reason === undefined ? undefined : sanitize(result.reason, NOTE_REASON_CHARS),
    via: result.via,
    ...(result.demoted ? { demoted: result.demoted } : {}),
    ...(result.second ? { second: result.second } : {}),
    ...(result.readByCheck ? { readByCheck: result.readByCheck } : {}),
    ...(result.disputed ? { disputed: result.disputed } : {}),
    ...(result.cited ? { cited: sanitize(result.cited, 200) } : {}),
  }))
}
