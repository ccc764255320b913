// What the plugin counts of its work: one set of counters, kept for each session and for the whole plugin.

export interface Counters {
  /** Statements of replies settled, by any route (gate, records, cache, judge). */
  statements: number
  requests: number
  retries: number
  callFailures: number
  parseErrors: number
  /** Batched answers that could not be read whole: their claims were judged again one by one. */
  batchParseErrors: number
  cacheHits: number
  gateHits: number
  /** Statements no source speaks to (no term in common), not sent in normal mode. */
  unrelated: number
  claimsJudged: number
  notes: number
  injectionFailures: number
  staleDrops: number
  /** Claims about the agent's own work that its tool calls decided, with no judge call. */
  recordDecisions: number
  /** Contradictions whose quote stood in no source, let through as unverifiable. */
  unanchored: number
  secondOpinions: number
  /** Contradictions the second judge model did not confirm. */
  disagreements: number
  /** Second opinions asked for that did not come (an error, a timeout, an unreadable answer): the flag stands. */
  secondSilent: number
  tokensIn: number
  tokensOut: number
}

/** Adds to one counter; a part counts through this, never on the objects themselves. */
export type Tally = (name: keyof Counters, by?: number) => void

export function newCounters(): Counters {
  return {
    statements: 0,
    requests: 0,
    retries: 0,
    callFailures: 0,
    parseErrors: 0,
    batchParseErrors: 0,
    cacheHits: 0,
    gateHits: 0,
    unrelated: 0,
    claimsJudged: 0,
    notes: 0,
    injectionFailures: 0,
    staleDrops: 0,
    recordDecisions: 0,
    unanchored: 0,
    secondOpinions: 0,
    disagreements: 0,
    secondSilent: 0,
    tokensIn: 0,
    tokensOut: 0,
  }
}

/** A tally that counts into every set given: a session's and the plugin's. */
export function tallyInto(...sets: ReadonlyArray<Counters | undefined>): Tally {
  return (name, by = 1) => {
    for (const set of sets) if (set) set[name] += by
  }
}
