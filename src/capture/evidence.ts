// The evidence buffer: premises cut from tool output, held under the cap, retired when their file changes.

import { asRecord, stringArg } from "../base/unknown.ts"
import type { Premise, PremiseBuffer } from "../state/shapes.ts"
import { editedPaths, shellWrittenPaths, type ToolCall } from "./provenance.ts"
import { cleanEvidence, REDACTION_MARGIN, redactLines, redactSecrets } from "./redact/redact.ts"
import { dropSensitiveLines } from "./sensitive.ts"
import { FILE_LISTING_TOOL_RE } from "./tools.ts"

export const READ_LINE_PREFIX_RE = /^\s*\d+: /gm

/** The number before each line of a tool's output that quotes a file: read's `12: `, grep's `  Line 12: `. */
const NUMBERED_LINE_RES: Readonly<Record<string, RegExp>> = { read: /^\s*\d+: /, grep: /^\s*Line \d+: / }

/** opencode's read output: the file wrapped in <path>, <type> and <content> tags. */
const READ_OUTPUT_HEAD_RE = /^<path>[^\n]*<\/path>\n<type>[^\n]*<\/type>\n<content>\n/

/** Reads a finished tool call from the loose payloads of `tool.execute.after`. */
export function readToolCall(input: { tool?: unknown; args?: unknown }, output: unknown): ToolCall {
  const result = asRecord(output)
  return {
    tool: typeof input.tool === "string" ? input.tool : "",
    args: asRecord(input.args),
    metadata: asRecord(result.metadata),
    title: typeof result.title === "string" ? result.title : "",
  }
}

/** opencode's read output wraps the file in <path>/<type>/<content> tags; the source label says the same. */
function unwrapReadOutput(text: string): string {
  const head = READ_OUTPUT_HEAD_RE.exec(text)
  if (!head) return text
  const body = text.slice(head[0].length)
  return body.endsWith("</content>") ? body.slice(0, -"</content>".length).trimEnd() : body
}

/**
 * Redacts a tool output whose lines carry numbers as the text of the file: the numbers are set aside, the
 * lines redacted together, the numbers put back (a key block's number stays on the line that holds its
 * redaction; the lines it swallowed go with theirs). Rules that hold at a line's start or span lines see
 * the lines as a webfetch of the same text would.
 */
function redactNumberedLines(text: string, prefix: RegExp): string {
  const lines = text.split("\n")
  const prefixes = lines.map((line) => prefix.exec(line)?.[0] ?? "")
  const redacted = redactLines(lines.map((line, i) => line.slice(prefixes[i]?.length)))
  return redacted.flatMap((line, i) => (line === undefined ? [] : [`${prefixes[i]}${line}`])).join("\n")
}

/**
 * What of a tool's output may serve as evidence: its most recent part, without the lines of sensitive files,
 * unwrapped, redacted and clipped to `cap`. Cut first: the rest costs the same for 10 KB and for 10 MB.
 */
export function evidenceOf(call: ToolCall, raw: string, cap: number): string {
  const windowSize = cap + 2 * REDACTION_MARGIN
  let text = raw.length > windowSize ? raw.slice(raw.length - windowSize) : raw
  if (FILE_LISTING_TOOL_RE.test(call.tool)) text = dropSensitiveLines(text, text.length < raw.length)
  if (call.tool === "read") text = unwrapReadOutput(text)
  const numbered = NUMBERED_LINE_RES[call.tool]
  return cleanEvidence(text, cap, numbered ? (window) => redactNumberedLines(window, numbered) : redactSecrets)
}

/**
 * Adds a premise and keeps the most recent `cap` characters: whole old premises leave first, and the one
 * that straddles the cut loses its head. A re-read of the same span replaces its older copy.
 */
export function addPremise(buffer: PremiseBuffer, premise: Premise, cap: number): PremiseBuffer {
  const kept = retirePremises(buffer, (old) => old.ref === premise.ref)
  const premises = [...kept.premises, premise]
  let premiseChars = kept.premiseChars + premise.text.length
  let drop = 0
  while (premiseChars > cap && premises.length - drop > 1) {
    const oldest = premises[drop] as Premise
    const excess = premiseChars - cap
    if (oldest.text.length > excess) {
      premises[drop] = { ...oldest, text: oldest.text.slice(excess) }
      premiseChars -= excess
    } else {
      premiseChars -= oldest.text.length
      drop++
    }
  }
  return { premises: premises.slice(drop), premiseChars }
}

/** Drops the premises that no longer describe their source (the file was edited, moved or deleted). */
export function retirePremises(buffer: PremiseBuffer, isStale: (premise: Premise) => boolean): PremiseBuffer {
  if (!buffer.premises.some(isStale)) return buffer
  const premises = buffer.premises.filter((premise) => !isStale(premise))
  return { premises, premiseChars: premises.reduce((sum, premise) => sum + premise.text.length, 0) }
}

/** Files whose premises a tool call made stale: edited by an edit tool, or rewritten by a shell command. */
export function stalePathsOf(
  call: ToolCall,
  buffer: PremiseBuffer,
  directory: string,
  edited = editedPaths(call.tool, call.args, directory),
): Set<string> {
  const stale = new Set(edited)
  const command = stringArg(call.args, "command", "cmd")
  if (command) {
    const paths = buffer.premises.flatMap((premise) => (premise.path ? [premise.path] : []))
    for (const path of shellWrittenPaths(command, paths, directory)) stale.add(path)
  }
  return stale
}
