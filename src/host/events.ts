// Reading opencode's events: replies as they stream, user turns, sessions, and the plugin's own notes.
import { LIMITS, trimOldest } from "../base/bounds.ts"
import { clip } from "../base/text.ts"
import { asRecord, textOf } from "../base/unknown.ts"
import type { Capture, FailedToolPart } from "../capture/capture.ts"
import { QUESTION_CHARS } from "../judge/claim.ts"
import { JUDGE_AGENT, JUDGE_SESSION_TITLE, type OpencodeRoute } from "../judge/route.ts"
import { NOTE_TAG } from "../out/note.ts"
import type { Ledger } from "../turn/ledger.ts"
import type { ReplyJudge } from "../turn/reply.ts"
import { modelRef, type PartContext, type ReplyState, type SessionState, type UserMessage } from "../turn/session.ts"

export const STARTUP_TOAST_EVENTS = new Set(["plugin.added", "session.created", "message.updated"])

export function readSessionInfo(
  props: Record<string, unknown>,
): { id: string; parentID: string | undefined } | undefined {
  const info = asRecord(props.info)
  const id = textOf(info.id) ?? textOf(props.sessionID)
  return id ? { id, parentID: textOf(info.parentID) } : undefined
}

/** A message.updated payload. The model sits under `model` on a user message, at the top on an assistant's. */
export function readMessageInfo(props: Record<string, unknown>) {
  const info = asRecord(props.info)
  const id = textOf(info.id)
  const sessionID = textOf(info.sessionID) ?? textOf(props.sessionID)
  if (!id || !sessionID) return undefined
  const provider = textOf(info.providerID)
  const model = textOf(info.modelID)
  return {
    id,
    sessionID,
    role: info.role,
    agent: textOf(info.agent),
    model: modelRef(info.model),
    finish: textOf(info.finish),
    activeModel: provider && model ? `${provider}/${model}` : undefined,
  }
}

export interface TextPart {
  id: string
  text: string
  synthetic: boolean
  ignored: boolean
}

/** The two kinds of message.part.updated the plugin reads: a text part, and a tool part that failed. */
export function readPart(props: Record<string, unknown>) {
  const part = asRecord(props.part)
  const sessionID = textOf(part.sessionID) ?? textOf(props.sessionID)
  const messageID = textOf(part.messageID)
  if (!sessionID || !messageID) return undefined
  const id = textOf(part.id)
  if (part.type === "text" && typeof part.text === "string" && id) {
    const text: TextPart = { id, text: part.text, synthetic: part.synthetic === true, ignored: part.ignored === true }
    return { kind: "text" as const, sessionID, messageID, ...text }
  }
  const state = asRecord(part.state)
  const tool = textOf(part.tool)
  if (part.type === "tool" && state.status === "error" && tool) {
    const failed: FailedToolPart = {
      tool,
      input: asRecord(state.input),
      error: typeof state.error === "string" ? state.error : undefined,
    }
    return { kind: "tool-error" as const, sessionID, messageID, ...failed }
  }
  return undefined
}

/** The session an event is about, wherever its payload keeps the id. */
export function sessionOfEvent(props: Record<string, unknown>): string | undefined {
  const info = asRecord(props.info)
  return textOf(props.sessionID) ?? textOf(info.sessionID) ?? textOf(asRecord(props.part).sessionID) ?? textOf(info.id)
}

/** A judge session announced before the route learned its id: `session.created` fires before `create()` returns. */
export function isJudgeSessionInfo(info: unknown): boolean {
  const session = asRecord(info)
  return session.title === JUDGE_SESSION_TITLE && textOf(session.parentID) !== undefined
}

/** The synthetic first part of the plugin's own note. */
export function isNoteInstruction(part: { synthetic?: unknown; text?: unknown }): boolean {
  return part.synthetic === true && typeof part.text === "string" && part.text.startsWith(NOTE_TAG)
}

/** A message of the session that is the plugin's own note: its visible notice is no user turn. */
export function markNote(state: SessionState, messageID: string) {
  state.noteMessages.add(messageID)
  trimOldest(state.noteMessages, LIMITS.userMessagesPerSession)
}

/** A real user message opens a turn: a new generation (older verdicts are dropped) and a fresh cascade depth. */
export function openRealTurn(state: SessionState, user: UserMessage, ledger: Ledger) {
  if (state.lastUser?.id !== user.id) {
    state.lastUser = user
    state.generation++
  }
  ledger.openTurn(state.id, user.id)
}

/** The reply being tracked, started afresh when `messageID` is a newer assistant message. */
export function replyOf(state: SessionState, messageID: string): ReplyState {
  if (state.reply?.id !== messageID) state.reply = { id: messageID, finish: undefined, texts: new Map() }
  return state.reply
}

/** The one place reply text is recorded, whichever of opencode's two signals carries it. */
export function recordReplyText(state: SessionState, messageID: string, partID: string, text: string) {
  if (!state.userMessages.has(messageID)) replyOf(state, messageID).texts.set(partID, text)
}

/** A user message is remembered for its agent and model; an assistant message becomes the reply being tracked. */
export function recordMessage(state: SessionState, info: NonNullable<ReturnType<typeof readMessageInfo>>) {
  if (info.role === "user") {
    if (state.userMessages.has(info.id)) return
    state.userMessages.set(info.id, { agent: info.agent, model: info.model })
    trimOldest(state.userMessages, LIMITS.userMessagesPerSession)
  } else if (info.role === "assistant") {
    const reply = replyOf(state, info.id)
    if (info.finish) reply.finish = info.finish
    if (info.activeModel) state.activeModel = info.activeModel
  }
}

/** One handler per event type the plugin reads; every other event passes by. */
export function eventHandlers({ deps, store }: PartContext, capture: Capture, judge: ReplyJudge) {
  const onPart = (props: Record<string, unknown>) => {
    const part = readPart(props)
    const state = part && store.find(part.sessionID)
    if (!part || !state) return
    if (part.kind === "tool-error") return capture.toolFailed(state, part)
    const user = state.userMessages.get(part.messageID)
    if (user && isNoteInstruction(part)) markNote(state, part.messageID)
    if (user && !part.synthetic && !part.ignored && !state.noteMessages.has(part.messageID)) {
      openRealTurn(state, { id: part.messageID, ...user, text: clip(part.text, QUESTION_CHARS * 2) }, deps.ledger)
    } else if (!user && !part.synthetic && !part.ignored) recordReplyText(state, part.messageID, part.id, part.text)
  }
  const onIdle = (props: Record<string, unknown>) => {
    const state = store.find(textOf(props.sessionID) ?? "")
    if (state) judge.onIdle(state)
  }
  const onSession = (props: Record<string, unknown>) => {
    const info = readSessionInfo(props)
    if (!info) return
    const state = store.touch(info.id)
    state.parentKnown = true
    state.parentID = info.parentID
  }
  const onSessionDeleted = (props: Record<string, unknown>) => {
    const info = readSessionInfo(props)
    if (!info) return
    store.remove(info.id)
    deps.ledger.forget(info.id)
  }
  const onMessage = (props: Record<string, unknown>) => {
    const info = readMessageInfo(props)
    if (info) recordMessage(store.touch(info.sessionID), info)
  }
  return new Map<string, (props: Record<string, unknown>) => void>([
    ["session.created", onSession],
    ["session.updated", onSession],
    ["session.deleted", onSessionDeleted],
    ["message.updated", onMessage],
    ["message.part.updated", onPart],
    ["session.idle", onIdle],
    ["session.status", (props) => asRecord(props.status).type === "idle" && onIdle(props)],
  ])
}

/**
 * Owns what opencode's events and chat hooks tell: sessions and their parents, real user turns, the reply
 * text, the active model, and when a turn is over.
 */
export function createEventTracker(ctx: PartContext, capture: Capture, judge: ReplyJudge, route: OpencodeRoute) {
  const { deps, store, notifier } = ctx
  const handlers = eventHandlers(ctx, capture, judge)
  return {
    onEvent(event: Record<string, unknown>) {
      const props = asRecord(event.properties)
      // The plugin's own judge sessions are never captured, judged or noted; the route reads their events.
      if (route.owns(sessionOfEvent(props))) return route.onEvent(event.type, props)
      if (isJudgeSessionInfo(props.info)) return
      // A toast sent before the TUI listens is lost; these events come once it does.
      if (STARTUP_TOAST_EVENTS.has(String(event.type))) notifier.showStartupNotice()
      if (typeof event.type === "string") handlers.get(event.type)?.(props)
    },
    onChatMessage(input: { sessionID: string; agent?: unknown }, output: unknown) {
      if (route.owns(input.sessionID) || input.agent === JUDGE_AGENT) return
      const { message, parts } = asRecord(output)
      const { id, agent, model } = asRecord(message)
      const list = Array.isArray(parts) ? parts.map(asRecord) : []
      const messageID = textOf(id)
      if (!messageID) return
      if (list.some(isNoteInstruction)) {
        // The plugin's own note: its visible notice is no user turn, whichever instance sent it.
        markNote(store.touch(input.sessionID), messageID)
        return
      }
      // opencode adds synthetic text parts to real messages too (attached files), so one real part decides;
      // ignored parts (the plugin's own report) are shown to the user and never sent, so they are no prompt either.
      const real = list.filter(
        (part) => part.type === "text" && !part.synthetic && !part.ignored && typeof part.text === "string",
      )
      if (real.length === 0) return
      const text = real.map((part) => part.text).join("\n")
      openRealTurn(
        store.touch(input.sessionID),
        { id: messageID, agent: textOf(agent), model: modelRef(model), text: clip(text, QUESTION_CHARS * 2) },
        deps.ledger,
      )
    },
    onChatParams(input: { sessionID: string; agent?: unknown; model?: unknown }, output: unknown) {
      if (route.owns(input.sessionID)) return route.params(input.sessionID, asRecord(output))
      if (input.agent === "title" || input.agent === JUDGE_AGENT) return
      const state = store.touch(input.sessionID)
      if (state.lastUser?.agent && input.agent !== state.lastUser.agent) return
      const model = asRecord(input.model)
      const id = textOf(model.id)
      const provider = textOf(model.providerID)
      if (id) state.activeModel = provider ? `${provider}/${id}` : id
    },
    onTextComplete(input: { sessionID: string; messageID: string; partID: string }, output: unknown) {
      if (route.owns(input.sessionID)) return
      const state = store.find(input.sessionID)
      const text = asRecord(output).text
      if (state && typeof text === "string" && textOf(input.messageID) && textOf(input.partID)) {
        recordReplyText(state, input.messageID, input.partID, text)
      }
    },
    /** Every session's finished reply, judged now: `opencode run` disposes the instance right after its first idle. */
    judgeAll() {
      for (const state of store.sessions.values()) judge.onIdle(state)
    },
  }
}
