// The session store: per-session state, bounded and keyed by session id.

import { LIMITS, trimOldest } from "../base/bounds.ts"
import { type Counters, newCounters } from "../base/counters.ts"
import { asRecord } from "../base/unknown.ts"
import type { Config } from "../config/config.ts"
import type { Deps, Notifier } from "../config/effects.ts"
import type { EarlierRecords, FlaggedClaim, NotJudged, PremiseBuffer, ToolRecord } from "./shapes.ts"

export interface ModelRef {
  providerID: string
  modelID: string
}

export interface ReplyState {
  id: string
  finish: string | undefined
  /** Final text per part, in arrival order; the reply is their concatenation. */
  texts: Map<string, string>
}

export interface UserMessage {
  id: string
  agent: string | undefined
  model: ModelRef | undefined
  /** What the user asked, kept short; the judge may see it to understand a claim. */
  text?: string
}

export interface SessionState extends PremiseBuffer {
  id: string
  parentID: string | undefined
  parentKnown: boolean
  /** Set when opencode deletes the session: a verdict still being computed for it is dropped. */
  deleted: boolean
  nextSource: number
  /**
   * The session's latest tool calls, oldest first: its line (what the judge and notes quote as the tool calls of
   * this session) and its facts (paths, command, exit code), which decide claims about the agent's own work.
   */
  records: ToolRecord[]
  /** What the calls that left `records` did to files, so claims about files stay decidable in a long session. */
  earlier: EarlierRecords
  /** URLs and queries of every web premise, kept after the premise itself leaves the buffer. */
  webRefs: string[]
  warnedPackages: Set<string>
  toastKeys: Set<string>
  /** Agent and model of the user messages seen, by message id: a synthetic note is sent with the same. */
  userMessages: Map<string, Pick<UserMessage, "agent" | "model">>
  lastUser: UserMessage | undefined
  reply: ReplyState | undefined
  activeModel: string | undefined
  /** Bumped by each real user message; a verdict computed for an older generation is dropped. */
  generation: number
  /**
   * The user messages that are the plugin's own notes (their first part is the synthetic instruction) and its
   * notices under a reply (a failed judge): their visible text is echoed back as user text, which is no user
   * turn, and no step of its own for undo.
   */
  noteMessages: Set<string>
  /** The user messages that are the plugin's `/ragfaith` reports: shown to the user, never a user turn. */
  reportMessages: Set<string>
  /** The message the session is reverted to (undo), as opencode last told it; undefined when it is not reverted. */
  revertedTo: string | undefined
  /** Off after `/ragfaith off`: replies of this session are not judged. */
  judging: boolean
  /** What became of the last reply judged here, for `/ragfaith`. */
  report: ReplyReport | undefined
  /** The last reply that drew a note (or a report), kept when its correction is judged after it. */
  flaggedReport: ReplyReport | undefined
  /** This session's judging so far, as `/ragfaith` tells it. */
  counters: Counters
  /** Second-opinion models by the calls in a row they left unanswered; past a few they are not asked again. */
  silentSeconds: Map<string, number>
  /** Statements (`statementId`) the agent kept, citing a source, and the judge upheld: never flagged again here. */
  upheld: Set<string>
  /** Disputes of this session: kept by the agent and upheld or rejected, and flags the user marked wrong. */
  disputes: { upheld: number; rejected: number; marked: number }
}

/** The last reply of a session as the plugin saw it: every statement, and what happened to the verdicts. */
export interface ReplyReport {
  at: number
  model: string | undefined
  /** Every statement judged, sanitised once like a note's. */
  items: FlaggedClaim[]
  /** Sentences that assert nothing a source could confirm (questions, offers, greetings, lead-ins), and why. */
  notClaims: NotJudged[]
  /** Sentences stating nothing beyond those listed (`LIMITS.notClaimsPerReply`), only counted. */
  unlisted?: number
  overCap: number
  /** Claims left unjudged because the judge failed. */
  unjudged: number
  /** What judging this reply cost: judge requests (second opinions and retries included) and tokens. */
  spend?: Pick<Counters, "requests" | "tokensIn" | "tokensOut">
  /** The files the check read itself for this reply, as their sources are labelled (RFE_READ_NAMED). */
  readByCheck?: string[]
  outcome: "silent" | "noted" | "reported" | "dropped" | "deleted"
}

/** The judge as `/ragfaith` reports it: the model asked last, and the last failure. */
export interface JudgeHealth {
  model: string | undefined
  lastError: { message: string; at: number } | undefined
}

export function newSession(id: string): SessionState {
  return {
    id,
    parentID: undefined,
    parentKnown: false,
    deleted: false,
    premises: [],
    premiseChars: 0,
    nextSource: 0,
    records: [],
    earlier: { files: new Map(), unnamedChange: false, unnamedRead: false, delegated: false, overflow: false },
    webRefs: [],
    warnedPackages: new Set(),
    toastKeys: new Set(),
    userMessages: new Map(),
    lastUser: undefined,
    reply: undefined,
    activeModel: undefined,
    generation: 0,
    noteMessages: new Set(),
    reportMessages: new Set(),
    revertedTo: undefined,
    judging: true,
    report: undefined,
    flaggedReport: undefined,
    counters: newCounters(),
    silentSeconds: new Map(),
    upheld: new Set(),
    disputes: { upheld: 0, rejected: 0, marked: 0 },
  }
}

/** Owns the per-session state: created on first sight, keyed by session id, the least recently used dropped first. */
export function createSessionStore() {
  const sessions = new Map<string, SessionState>()
  return {
    sessions: sessions as ReadonlyMap<string, SessionState>,
    /** The session's state, created on first sight; a touched session becomes the newest. */
    touch(id: string): SessionState {
      const state = sessions.get(id) ?? newSession(id)
      sessions.delete(id)
      sessions.set(id, state)
      trimOldest(sessions, LIMITS.sessions)
      return state
    },
    /** The session's state if the plugin knows it; events for unknown sessions create nothing. */
    find: (id: string) => sessions.get(id),
    remove(id: string) {
      const state = sessions.get(id)
      if (state) state.deleted = true
      sessions.delete(id)
    },
    /** The session and its parent: a subagent works for its parent, so the parent's evidence counts too. */
    lineage(state: SessionState): SessionState[] {
      const parent = state.parentID ? sessions.get(state.parentID) : undefined
      return parent ? [state, parent] : [state]
    },
  }
}

type SessionStore = ReturnType<typeof createSessionStore>

/** What every part is built from: the config, the effects, the project directory, the sessions, the voice, the counters. */
export interface PartContext {
  config: Config
  deps: Deps
  directory: string
  store: SessionStore
  notifier: Notifier
  /** The plugin's counters; each session also keeps its own (`SessionState.counters`). */
  counters: Counters
  health: JudgeHealth
}

/**
 * A message of the session that is the plugin's own note, or a notice under a reply: its visible text is no
 * user turn, and undo passes over it to the user's own message.
 */
export function markNote(state: SessionState, messageID: string) {
  state.noteMessages.add(messageID)
  trimOldest(state.noteMessages, LIMITS.userMessagesPerSession)
}

/** A message of the session that is the plugin's own `/ragfaith` report. */
export function markReport(state: SessionState, messageID: string) {
  state.reportMessages.add(messageID)
  trimOldest(state.reportMessages, LIMITS.userMessagesPerSession)
}

export function modelRef(value: unknown): ModelRef | undefined {
  const model = asRecord(value)
  return typeof model.providerID === "string" && typeof model.modelID === "string"
    ? { providerID: model.providerID, modelID: model.modelID }
    : undefined
}
