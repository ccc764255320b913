// Kubernetes Secret manifests, whose data values are secrets whatever their keys are called.
import { base64Text, isBlank, isPlaceholder, NOT_SECRET_VALUES, REDACTED } from "./values.ts"

const SECRET_KIND_RE = /^[ \t-]*kind:[ \t]*["']?[Ss]ecret["']?[ \t]*(?:#.*)?$/m

const DATA_BLOCK_RE = /^([ \t]*(?:-[ \t]+)?)(?:data|stringData):[ \t]*(?:#.*)?$/

const DATA_ENTRY_RE = /^([ \t]*["']?[\w.-]+["']?:[ \t]*)(\S(?:.*\S)?)?[ \t]*$/

/** An empty value (`''`, `""`) or a template's (`{{ htpasswd }}`): nothing is written there yet. */
const EMPTY_OR_TEMPLATE_RE = /^(?:''|""|\{\{.*\}\})$/

const BLOCK_SCALAR_RE = /^[|>][-+]?\d?$/

const JSON_SECRET_KIND_RE = /"kind"[ \t]*:[ \t]*"Secret"/

const JSON_DATA_RE = /("(?:data|stringData)"[ \t]*:[ \t]*\{)([^{}]*)\}/g

const JSON_ENTRY_RE = /("[^"\n]*"[ \t]*:[ \t]*)"[^"\n]*"/g

/** The indentation of a line, and whether it holds anything but blanks and a comment. */
function indentOf(line: string): { indent: number; blank: boolean } {
  let indent = 0
  while (isBlank(line.charCodeAt(indent))) indent++
  return { indent, blank: indent === line.length || line[indent] === "#" }
}

/** A data value whose base64 spells a stand-in or a common default (`YmFyCg==`, "bar"): nothing is kept there. */
function encodesStandIn(raw: string): boolean {
  const text = base64Text(raw.replace(/^["']|["']$/g, ""))?.trim()
  return text !== undefined && (text === "" || NOT_SECRET_VALUES.has(text.toLowerCase()) || isPlaceholder(text))
}

/** A data entry with its value redacted and its quotes kept. */
function redactEntry(entry: RegExpExecArray): string {
  const value = entry[2] ?? ""
  const quote = /^["']/.test(value) && value.endsWith(value[0] ?? "") && value.length > 1 ? (value[0] ?? "") : ""
  return `${entry[1]}${quote}${REDACTED}${quote}`
}

/** Within one YAML document of kind Secret: every value of the `data:` and `stringData:` maps. */
function redactDataBlocks(lines: string[], from: number, to: number): void {
  let blockIndent = -1
  let scalarIndent = -1
  for (let i = from; i < to; i++) {
    const line = lines[i] ?? ""
    const { indent, blank } = indentOf(line)
    if (blockIndent >= 0 && !blank && indent <= blockIndent) blockIndent = -1
    if (blockIndent < 0) {
      const block = DATA_BLOCK_RE.exec(line)
      if (block) blockIndent = (block[1] ?? "").length
      scalarIndent = -1
      continue
    }
    if (blank) continue
    if (scalarIndent >= 0 && indent > scalarIndent) {
      lines[i] = line.slice(0, indent) + REDACTED
      continue
    }
    scalarIndent = -1
    const entry = DATA_ENTRY_RE.exec(line)
    if (!entry?.[2]) continue
    if (BLOCK_SCALAR_RE.test(entry[2])) scalarIndent = indent
    else if (!EMPTY_OR_TEMPLATE_RE.test(entry[2]) && !encodesStandIn(entry[2])) lines[i] = redactEntry(entry)
  }
}

/**
 * Kubernetes Secret manifests, in YAML (document by document, since kubectl writes `kind` after `data`) and
 * in kubectl's JSON: every value under `data`/`stringData` is a secret, whatever its key is called.
 */
export function redactSecretManifests(text: string): string {
  if (!text.includes("ecret")) return text
  let out = text
  if (SECRET_KIND_RE.test(out)) {
    const lines = out.split("\n")
    let start = 0
    let isSecret = false
    for (let i = 0; i <= lines.length; i++) {
      const line = lines[i] ?? ""
      if (i < lines.length && !line.startsWith("---")) {
        isSecret ||= line.includes("kind") && SECRET_KIND_RE.test(line)
        continue
      }
      if (isSecret) redactDataBlocks(lines, start, i)
      start = i + 1
      isSecret = false
    }
    out = lines.join("\n")
  }
  if (JSON_SECRET_KIND_RE.test(out)) {
    out = out.replace(
      JSON_DATA_RE,
      (_m, open: string, body: string) => `${open}${body.replace(JSON_ENTRY_RE, `$1"${REDACTED}"`)}}`,
    )
  }
  return out
}
