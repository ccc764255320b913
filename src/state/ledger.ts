// The ledger: at most one note per reply (and one answer per undo), even when opencode loads the plugin twice in one process.
import { LIMITS, trimOldest } from "../base/bounds.ts"
import type { Ledger, TurnLedger } from "../config/effects.ts"

export function createLedger(): Ledger {
  const replies = new Set<string>()
  const reverts = new Set<string>()
  const turns = new Map<string, TurnLedger>()
  return {
    claimReply(messageID) {
      if (replies.has(messageID)) return false
      replies.add(messageID)
      trimOldest(replies, LIMITS.ledgerReplies)
      return true
    },
    claimRevert(eventID) {
      if (reverts.has(eventID)) return false
      reverts.add(eventID)
      trimOldest(reverts, LIMITS.ledgerReplies)
      return true
    },
    turn: (sessionID) => turns.get(sessionID),
    openTurn(sessionID, userMessageID) {
      if (turns.get(sessionID)?.userMessageID === userMessageID) return
      turns.delete(sessionID)
      turns.set(sessionID, { userMessageID, depth: 0, flaggedClaims: new Set() })
      trimOldest(turns, LIMITS.ledgerSessions)
    },
    forget(sessionID) {
      turns.delete(sessionID)
    },
  }
}

/**
 * opencode can load one plugin twice in a process (global and project config, say). The ledger is the one
 * deliberate piece of process-wide state: both copies must agree on which replies were judged and how
 * deep the cascade is, or a reply could earn two notes. It is created on first use, never at import.
 */
export function processLedger(): Ledger {
  const key = Symbol.for("ragfaith.ledger.v1")
  const holder = globalThis as unknown as Record<symbol, Ledger | undefined>
  holder[key] ??= createLedger()
  return holder[key]
}
