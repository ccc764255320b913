// Redaction as one pass: every rule family in order, and the evidence cleaned for the judge.
import { ASTERISK, BULLET, ELLIPSIS, HASH } from "../../base/chars.ts"
import { redactAssignments } from "./assignments.ts"
import { applyCuts, redactCommandFlags } from "./commands.ts"
import { CONTEXTS_RULES } from "./contexts.ts"
import { redactCookies } from "./cookies.ts"
import { inPublishedFormat } from "./formats.ts"
import { redactJwts } from "./jwt.ts"
import { privateKeyCuts, redactPrivateKeys } from "./keys.ts"
import { redactSecretManifests } from "./manifests.ts"
import { CONTEXT_RULES, TOKEN_RULES } from "./tokens.ts"
import { REDACTED, type SecretRule } from "./values.ts"
import { VENDOR_RULES } from "./vendors.ts"

/** Extra characters kept before the premise cut, so a secret straddling the cut is still recognised. */
export const REDACTION_MARGIN = 4_096

const DELIMITER_RE = /<(\/?)(sources?|claim|question|context)\b/gi

/** Below this length a text is searched for each keyword directly; above it, through its 4-gram bitmap. */
const QUADGRAM_MIN_CHARS = 4_096

const UTF8 = new TextEncoder()

/**
 * Whether a keyword may occur in the text. For a long text, one pass records which 4-byte sequences it holds
 * in a Bloom-style bitmap of about 8 bits per byte, and which 2-byte sequences in a table of all of them; a
 * keyword is then a few bit tests: a hundred `includes` over a megabyte cost 30 to 60 ms in Bun, the pass 5 to
 * 10. A short keyword (`b_`, `t1.`) is searched only if its pairs are all there: an `includes` that finds
 * nothing still reads the whole text. A false "may" only means its rule runs for nothing.
 */
export function keywordTest(text: string): (keyword: string) => boolean {
  if (text.length < QUADGRAM_MIN_CHARS) return (keyword) => text.includes(keyword)
  const bytes = UTF8.encode(text)
  const shift = Math.ceil(Math.log2(bytes.length * 8))
  const map = new Uint32Array(1 << (shift - 5))
  const pairs = new Uint32Array(2048)
  const bit = (quad: number) => Math.imul(quad, 0x9e3779b1) >>> (32 - shift)
  let quad = 0
  for (let i = 0; i < bytes.length; i++) {
    quad = (quad << 8) | (bytes[i] ?? 0)
    const b = bit(quad)
    map[b >>> 5] = (map[b >>> 5] ?? 0) | (1 << (b & 31))
    const pair = quad & 0xffff
    pairs[pair >>> 5] = (pairs[pair >>> 5] ?? 0) | (1 << (pair & 31))
  }
  const hasPair = (keyword: string, at: number) => {
    const pair = ((keyword.charCodeAt(at) & 0xff) << 8) | (keyword.charCodeAt(at + 1) & 0xff)
    return ((pairs[pair >>> 5] ?? 0) & (1 << (pair & 31))) !== 0
  }
  return (keyword) => {
    if (keyword.length < 4) {
      for (let at = 0; at + 1 < keyword.length; at++) if (!hasPair(keyword, at)) return false
      return text.includes(keyword)
    }
    let quad = 0
    for (let i = 0; i < keyword.length; i++) {
      quad = (quad << 8) | keyword.charCodeAt(i)
      const b = bit(quad)
      if (i >= 3 && !((map[b >>> 5] ?? 0) & (1 << (b & 31)))) return false
    }
    return true
  }
}

/** `#`, `*`, `•`: what masks the rest of a token shown in a dashboard or a log. */
const isMaskChar = (code: number) => code === HASH || code === ASTERISK || code === BULLET

/**
 * A token followed by a mask (`xoxp-…-####…`, `ghp_1a2b***…`, `sk-……`) is a display of one, not the token:
 * its visible part is an id or a hint. Three mask characters, so markdown's `**ghp_…**` is no mask.
 */
function isMaskedAt(text: string, at: number): boolean {
  if (text.charCodeAt(at) === ELLIPSIS) return true
  return isMaskChar(text.charCodeAt(at)) && isMaskChar(text.charCodeAt(at + 1)) && isMaskChar(text.charCodeAt(at + 2))
}

type Replacer = (match: string, ...rest: unknown[]) => string

/** A token rule's replacer that keeps a masked token: String.replace passes the offset and the text last. */
const unlessMasked =
  (replace: Replacer): Replacer =>
  (match, ...rest) => {
    const text = rest.at(-1)
    const offset = rest.at(-2)
    if (typeof text === "string" && typeof offset === "number" && isMaskedAt(text, offset + match.length)) return match
    return replace(match, ...rest)
  }

/** A token rule's replacer that redacts a match in its vendor's published format before asking the rule. */
const formatFirst =
  (rule: SecretRule): Replacer =>
  (match, ...rest) =>
    inPublishedFormat(rule.name, match) ? REDACTED : (rule.replace as Replacer)(match, ...rest)

/** Every token and context rule in the order they run, with their keywords as one list each. */
export const SECRET_RULES = [
  ...[...TOKEN_RULES, ...VENDOR_RULES].map((rule) => ({
    ...rule,
    replace: unlessMasked(formatFirst(rule)),
  })),
  ...CONTEXT_RULES,
  ...CONTEXTS_RULES,
].map((rule) => ({
  ...rule,
  keywords: typeof rule.keyword === "string" ? [rule.keyword] : rule.keyword,
}))

export const redactSecrets = (text: string) => redactAfterKeys(redactPrivateKeys(text))

/** Every pass but the private keys': none of them joins or splits a line, each replaces within one. */
function redactAfterKeys(text: string): string {
  // JWTs first: a header rule (`Basic eyJ…`) would otherwise take the header and leave payload and signature.
  let out = redactJwts(redactSecretManifests(text))
  // Replacements only insert REDACTED, which holds no keyword: the test made before them stays valid.
  const mayContain = keywordTest(out)
  for (const rule of SECRET_RULES) {
    if (!rule.keywords.some(mayContain) || (rule.requires && !out.includes(rule.requires))) continue
    rule.re.lastIndex = 0
    out = out.replace(rule.re, rule.replace as Replacer)
  }
  return redactAssignments(redactCookies(redactCommandFlags(out, mayContain), mayContain))
}

/**
 * Redacts a file given as its lines, as one text (so a rule that holds at a line's start or spans lines sees
 * the lines the file holds), and hands back one entry per line: a key block that took several lines leaves
 * its redaction on its first line and undefined on the others, so each line keeps its own number.
 */
export function redactLines(lines: readonly string[]): Array<string | undefined> {
  const text = lines.join("\n")
  const cuts = privateKeyCuts(text)
  const swallowed = new Set<number>()
  let line = 0
  let lineStart = 0
  for (const [start, end] of cuts) {
    // Lines are found by walking forward once: the cuts come in order.
    for (; lineStart + (lines[line]?.length ?? 0) < start && line < lines.length; line++) {
      lineStart += (lines[line]?.length ?? 0) + 1
    }
    let from = line
    let at = lineStart
    for (; at + (lines[from]?.length ?? 0) < end - 1 && from < lines.length; from++) {
      at += (lines[from]?.length ?? 0) + 1
      swallowed.add(from + 1)
    }
  }
  const out = redactAfterKeys(applyCuts(text, cuts)).split("\n")
  let next = 0
  return lines.map((_, i) => (swallowed.has(i) ? undefined : out[next++]))
}

/** Source text must not be able to close its own block and pose as the claim or the judge's instructions. */
export function escapeDelimiters(text: string): string {
  return text.replace(DELIMITER_RE, "‹$1$2")
}

/**
 * Keeps the most recent `cap` characters of a tool output. The cut happens before any regex runs, so a
 * 10 MB output costs the same as one of cap size; the margin lets redaction see a secret that straddles
 * the cut before the final trim.
 */
export function cleanEvidence(raw: string, cap: number, redact: (text: string) => string = redactSecrets): string {
  let window = raw
  if (raw.length > cap + REDACTION_MARGIN) {
    window = raw.slice(raw.length - cap - REDACTION_MARGIN)
    // A secret cut in half at the window's start no longer matches its pattern: drop the partial line, or
    // on one endless line at least the partial word (secrets hold no spaces; key blocks have their own rule).
    const lineStart = window.indexOf("\n")
    window = lineStart >= 0 && lineStart < REDACTION_MARGIN ? window.slice(lineStart + 1) : window.replace(/^\S*/, "")
  }
  const redacted = redact(window)
  return escapeDelimiters(redacted.length > cap ? redacted.slice(redacted.length - cap) : redacted)
}
