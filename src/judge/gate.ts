// The verbatim gate: a claim that stands word for word in a source is faithful without a judge.

import { READ_LINE_PREFIX_RE } from "../capture/evidence.ts"
import { normalizeForMatch } from "../claims/split.ts"
import type { Claim, Premise } from "../state/shapes.ts"

/** Shorter claims say too little for a verbatim match with a source to prove anything. */
const VERBATIM_MIN_CHARS = 24

/**
 * The zero-token gate: a claim that stands word for word in a source needs no judge. The source side
 * drops the `12: ` line numbers of opencode's read output so a quoted line still matches.
 */
export function isVerbatimInSources(claim: Claim, normalizedSources: string): boolean {
  if (claim.key.length < VERBATIM_MIN_CHARS) return false
  // The match must end where the source's clause ends: "X is enabled" is not proven by "X is enabled only if Y".
  for (let at = normalizedSources.indexOf(claim.key); at >= 0; at = normalizedSources.indexOf(claim.key, at + 1)) {
    // It must also start where a word starts ("5 retries" is not "15 retries"), and a comma may open a qualifier.
    const after = normalizedSources.slice(at + claim.key.length, at + claim.key.length + 2)
    if (!/[\p{L}\p{N}]/u.test(normalizedSources[at - 1] ?? "") && /^(?:$|\s?[.!?;:)\]"'”])/.test(after)) {
      return true
    }
  }
  return false
}

export function normalizeSources(premises: readonly Premise[]): string {
  return normalizeForMatch(premises.map((premise) => premise.text.replace(READ_LINE_PREFIX_RE, "")).join("\n"))
}
