// Verdicts: the judge's answer parsed, and a contradiction's quote found in the source it names.

import { clip } from "../base/text.ts"
import { READ_LINE_PREFIX_RE } from "../capture/evidence.ts"
import { redactSecrets } from "../capture/redact/redact.ts"
import { VERDICTS, type Verdict } from "../config/config.ts"
import type { JudgeVerdict, Premise } from "../state/shapes.ts"
import { PROCESS_SOURCE } from "./prompt.ts"

export const NOTE_REASON_CHARS = 160

/** A judge's quote is asked to be at most 200 characters; a longer one is cut, so it cannot flood a note. */
const QUOTE_MAX_CHARS = 400

/** Shorter quotes ("3", "the file") would stand in almost any source: they anchor nothing. */
const QUOTE_MIN_CHARS = 8

const VERDICT_RE = /"verdict"\s*:\s*"(\w+)"/

const SOURCE_RE = /"source"\s*:\s*"([^"\\]{0,40})"/

const REASON_RE = /"reason"\s*:\s*"((?:[^"\\]|\\.){0,600})"/

const QUOTE_FIELD_RE = /"quote"\s*:\s*"((?:[^"\\]|\\.){0,1200})"/

/** A JSON string's inner text, unescaped; a malformed escape keeps the raw text. */
function unescapeJSON(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined
  try {
    return JSON.parse(`"${raw}"`) as string
  } catch {
    return raw
  }
}

/**
 * A verdict from the fields a judge wrote. The reason is untrusted input, so it is redacted and clipped
 * before it is cached or shown; a source the request did not hold is no source.
 */
function verdictOf(
  fields: { verdict: unknown; source: unknown; quote: unknown; reason: unknown },
  sourceIds: ReadonlySet<string>,
): JudgeVerdict | undefined {
  const verdict = typeof fields.verdict === "string" ? fields.verdict.toLowerCase() : undefined
  if (!verdict || !(VERDICTS as readonly string[]).includes(verdict)) return undefined
  const source = typeof fields.source === "string" ? fields.source.trim() : undefined
  const quote = typeof fields.quote === "string" ? fields.quote.trim() : undefined
  const reason = typeof fields.reason === "string" ? fields.reason : undefined
  return {
    verdict: verdict as Verdict,
    source: source && sourceIds.has(source) ? source : undefined,
    quote: quote ? quote.slice(0, QUOTE_MAX_CHARS) : undefined,
    reason: reason ? clip(redactSecrets(reason), NOTE_REASON_CHARS) : undefined,
  }
}

/** Reads a verdict out of the judge's text. Only the judge's answer is parsed, never the premises. */
export function parseVerdict(content: string, sourceIds: ReadonlySet<string>): JudgeVerdict | undefined {
  return verdictOf(
    {
      verdict: VERDICT_RE.exec(content)?.[1],
      source: SOURCE_RE.exec(content)?.[1],
      quote: unescapeJSON(QUOTE_FIELD_RE.exec(content)?.[1]),
      reason: unescapeJSON(REASON_RE.exec(content)?.[1]),
    },
    sourceIds,
  )
}

/**
 * The verdicts of a batched answer, by claim id. Undefined when the answer is no JSON object with a
 * `verdicts` list or names an id the request did not hold: then nothing in it is trusted. An id without a
 * readable verdict, or given twice, is left out, and its claim is judged again on its own.
 */
export function parseBatchVerdicts(
  content: string,
  ids: readonly string[],
  sourceIds: ReadonlySet<string>,
): Map<string, JudgeVerdict> | undefined {
  let answer: unknown
  try {
    answer = JSON.parse(content.slice(content.indexOf("{"), content.lastIndexOf("}") + 1))
  } catch {
    return undefined
  }
  const entries = (answer as { verdicts?: unknown } | null)?.verdicts
  if (!Array.isArray(entries)) return undefined
  const asked = new Set(ids)
  const verdicts = new Map<string, JudgeVerdict>()
  const twice = new Set<string>()
  for (const entry of entries) {
    const fields = (entry ?? {}) as Record<string, unknown>
    const id = typeof fields.id === "string" ? fields.id.trim() : ""
    if (!asked.has(id)) return undefined
    const verdict = verdictOf(
      { verdict: fields.verdict, source: fields.source, quote: fields.quote, reason: fields.reason },
      sourceIds,
    )
    if (verdicts.has(id)) twice.add(id)
    else if (verdict) verdicts.set(id, verdict)
  }
  for (const id of twice) verdicts.delete(id)
  return verdicts
}

/** The comparison form of quoted text: case, spacing, markdown marks and typographic quotes do not count. */
function normalizeQuote(text: string): string {
  return text
    .toLowerCase()
    .replace(/[‘’]/g, "'")
    .replace(/[“”„]/g, '"')
    .replace(/[*_`~#>|]+/g, " ")
    .replace(/\s+/g, " ")
    .trim()
}

/** Each source's text in the form quotes are compared against; read output loses its `12: ` line numbers. */
export function quotableTexts(premises: readonly Premise[], toolLines: readonly string[]): Map<string, string> {
  const texts = new Map(
    premises.map((premise) => [premise.id, normalizeQuote(premise.text.replace(READ_LINE_PREFIX_RE, ""))]),
  )
  texts.set(PROCESS_SOURCE.id, normalizeQuote(toolLines.join("\n")))
  return texts
}

/** Whether every piece of a quote (pieces may be joined by "..." or "…") stands in the text, in order. */
function quoteStandsIn(quote: string, text: string): boolean {
  const pieces = quote
    .split(/\.{3}|…/)
    .map(normalizeQuote)
    .filter(Boolean)
  if (pieces.join(" ").length < QUOTE_MIN_CHARS) return false
  let at = 0
  for (const piece of pieces) {
    const found = text.indexOf(piece, at)
    if (found < 0) return false
    at = found + piece.length
  }
  return true
}

/**
 * The source a judge's quote really stands in: the one it names, else any other. Undefined when the quote
 * stands nowhere (invented) or is too short to prove anything: such a contradiction is not anchored.
 */
export function anchorQuote(quote: string | undefined, named: string | undefined, texts: ReadonlyMap<string, string>) {
  if (!quote) return undefined
  const ids = [...texts.keys()]
  const order = named && texts.has(named) ? [named, ...ids.filter((id) => id !== named)] : ids
  return order.find((id) => quoteStandsIn(quote, texts.get(id) ?? ""))
}
