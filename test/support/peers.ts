/**
 * A test sample of a peer secret scanner (gitleaks, secretlint, detect-secrets), and why a negative that
 * redaction changes is one for its peer: shared by the peers' benchmark (bench/peers.ts) and its test.
 */

export interface PeerSample {
  family:
    | "promised families"
    | "vendor tokens alone"
    | "generic assignments"
    | "other vendors"
    | "identifiers"
    | "negatives"
  /** `peer:rule`, for the misses listing. */
  source: string
  text: string
  /** A positive whose secret is a stand-in (runs of x, `EXAMPLE`, `<…>`): counted in its family, and apart. */
  standIn?: boolean
  /** The part that must go; empty for a negative. */
  secret: string
  /** How the secret was found: its span in a generated sample, the peer's rule run on it, or a guess. */
  located?: "span" | "rule" | "guess"
  /**
   * For a negative: the first of the peer's own rules whose regex matches it, if one does. Then its shape is a
   * credential's, and it is an allowlist of known values, an entropy threshold, a length or checksum check, or
   * the test of one rule among many that makes it a negative.
   */
  peerRule?: string
}

/**
 * Why a negative that redaction changes is a negative for its peer, in the order the reasons are checked:
 * - its text holds a value that is a positive's secret in the peers' own tests (the same UUID after a
 *   well-formed npm registry line, the same password in another file type): only what is around it differs;
 * - the regex of the very rule whose negative it is matches it: the rule tells it apart by a list of known
 *   values or an entropy floor, not by its shape;
 * - another rule of the same peer matches it: it is a credential by the peer's own rules, a negative of one
 *   rule's test only;
 * - no regex of the peer matches it.
 */
export function whyNegative(sample: PeerSample, output: string, positiveSecrets: ReadonlySet<string>): string {
  for (const secret of positiveSecrets) {
    if (secret.length >= 8 && sample.text.includes(secret) && !output.includes(secret))
      return "holds a value the peers count as a positive elsewhere"
  }
  if (!sample.peerRule) return "no regex of the peer matches it"
  const rule = sample.source.replace(/^[^:]+:/, "")
  return sample.peerRule === rule ? "its own rule's regex matches it" : "another rule of the peer matches it"
}
