// Statements the agent kept after a note, citing their source: found in the correction, matched to the flags.

import { normalizeForMatch } from "../claims/split.ts"
import { statementId } from "../judge/disputes.ts"
import type { Claim, FlaggedClaim } from "../state/shapes.ts"

/**
 * The form the note asks for: the statement, then its source in brackets, as in "It has 3 bridges (source:
 * notes.txt)." German and plural labels and square brackets count too; the full stop may stand before or after.
 */
const KEPT_CITATION_RE = /\s*[([]\s*(?:sources?|quellen?)\s*:\s*([^()[\]\n]{1,300}?)\s*[)\]]\s*[.!]?\s*$/i

/** A citation set after the statement's own full stop joins the statement, so the two are one sentence. */
const CITATION_AFTER_STOP_RE = /([.!])[ \t]+([([]\s*(?:sources?|quellen?)\s*:[^()[\]\n]{1,300}[)\]])/gi

/** The reply with every citation inside the sentence it cites for, ready to be split into claims. */
export function joinCitations(reply: string): string {
  return reply.replace(CITATION_AFTER_STOP_RE, " $2$1")
}

/** A sentence's citation: the statement without it, and the source it names; undefined when it cites none. */
export function citationOf(text: string): { statement: string; source: string } | undefined {
  const found = KEPT_CITATION_RE.exec(text)
  if (!found?.[1]) return undefined
  const statement = text.slice(0, found.index).trim()
  return statement ? { statement, source: found[1].trim() } : undefined
}

const wordsOf = (text: string) => new Set(normalizeForMatch(text).match(/[\p{L}\p{N}]+/gu) ?? [])

/** Nearly every word the same both ways: a statement written again with a word of grammar changed. */
const KEPT_OVERLAP = 0.85

/**
 * The flagged statement a cited sentence keeps, if any: the same normalised text, or nearly all the same
 * words (an agent may change a word or two of grammar when it writes a statement again).
 */
function keptFlag(statement: string, flags: readonly FlaggedClaim[]): FlaggedClaim | undefined {
  const id = statementId(normalizeForMatch(statement))
  const exact = flags.find((flag) => (flag.key ?? statementId(normalizeForMatch(flag.claim))) === id)
  if (exact) return exact
  const words = wordsOf(statement)
  return flags.find((flag) => {
    const other = wordsOf(flag.claim)
    const shared = [...words].filter((word) => other.has(word)).length
    return shared / Math.max(words.size, other.size, 1) >= KEPT_OVERLAP
  })
}

/** A claim of the correction that keeps a flagged statement: the flag, and the source the agent cites. */
export interface Kept {
  flag: FlaggedClaim
  source: string
  /** The kept statement's own `statementId`, without its citation. */
  key: string
}

/** The claims of a reply that keep one of `flags`, each with the flag it keeps and the source it cites. */
export function keptClaims(claims: readonly Claim[], flags: readonly FlaggedClaim[]): Map<Claim, Kept> {
  const kept = new Map<Claim, Kept>()
  if (flags.length === 0) return kept
  for (const claim of claims) {
    const cited = citationOf(claim.text)
    const flag = cited && keptFlag(cited.statement, flags)
    if (cited && flag) {
      kept.set(claim, { flag, source: cited.source, key: statementId(normalizeForMatch(cited.statement)) })
    }
  }
  return kept
}
