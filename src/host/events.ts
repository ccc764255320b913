// Reading opencode's events: replies as they stream, user turns, sessions, and the plugin's own notes.
import { LIMITS, trimOldest } from "../base/bounds.ts"
import { clip } from "../base/text.ts"
import { asRecord, textOf } from "../base/unknown.ts"
import type { Capture, FailedToolPart } from "../capture/capture.ts"
import type { Ledger } from "../config/effects.ts"
import { NOTE_TAG } from "../feedback/note.ts"
import type { Undo } from "../feedback/undo.ts"
import { JUDGE_AGENT, JUDGE_SESSION_TITLE, type OpencodeRoute } from "../judge/route.ts"
import { QUESTION_CHARS } from "../judge/settle.ts"
import {
  type ModelRef,
  markNote,
  modelRef,
  type PartContext,
  type ReplyState,
  type SessionState,
  type UserMessage,
} from "../state/session.ts"
import type { ReplyJudge } from "../turn/reply.ts"

function readSessionInfo(props: Record<string, unknown>): { id: string; parentID: string | undefined } | undefined {
  const info = asRecord(props.info)
  const id = textOf(info.id) ?? textOf(props.sessionID)
  return id ? { id, parentID: textOf(info.parentID) } : undefined
}

/** A message.updated payload. The model sits under `model` on a user message, at the top on an assistant's. */
function readMessageInfo(props: Record<string, unknown>) {
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

interface TextPart {
  id: string
  text: string
  synthetic: boolean
  ignored: boolean
}

/** The two kinds of message.part.updated the plugin reads: a text part, and a tool part that failed. */
function readPart(props: Record<string, unknown>) {
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

/** A judge session announced before the route learned its id: `session.created` fires before `create()` returns. */
function isJudgeSessionInfo(info: unknown): boolean {
  const session = asRecord(info)
  return session.title === JUDGE_SESSION_TITLE && textOf(session.parentID) !== undefined
}

/** The synthetic first part of the plugin's own note. */
function isNoteInstruction(part: { synthetic?: unknown; text?: unknown }): boolean {
  return part.synthetic === true && typeof part.text === "string" && part.text.startsWith(NOTE_TAG)
}

/** A real user message opens a turn: a new generation (older verdicts are dropped) and a fresh cascade depth. */
function openRealTurn(state: SessionState, user: UserMessage, ledger: Ledger) {
  if (state.lastUser?.id !== user.id) {
    state.lastUser = user
    state.generation++
  }
  ledger.openTurn(state.id, user.id)
}

/** The reply being tracked, started afresh when `messageID` is a newer assistant message. */
function replyOf(state: SessionState, messageID: string): ReplyState {
  if (state.reply?.id !== messageID) state.reply = { id: messageID, finish: undefined, texts: new Map() }
  return state.reply
}

/** The one place reply text is recorded, whichever of opencode's two signals carries it. */
function recordReplyText(state: SessionState, messageID: string, partID: string, text: string) {
  if (!state.userMessages.has(messageID)) replyOf(state, messageID).texts.set(partID, text)
}

/** A user message is remembered for its agent and model; an assistant message becomes the reply being tracked. */
function recordMessage(state: SessionState, info: NonNullable<ReturnType<typeof readMessageInfo>>) {
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

/** The opencode 1 events the plugin reads, by name: the one table of them. */
const EVENT = {
  pluginAdded: "plugin.added",
  sessionCreated: "session.created",
  sessionUpdated: "session.updated",
  sessionDeleted: "session.deleted",
  sessionStatus: "session.status",
  sessionError: "session.error",
  sessionIdle: "session.idle",
  messageUpdated: "message.updated",
  partUpdated: "message.part.updated",
} as const

/** A toast sent before the TUI listens is lost; these events come once it does. */
const STARTUP_TOAST_EVENTS: ReadonlySet<string> = new Set([
  EVENT.pluginAdded,
  EVENT.sessionCreated,
  EVENT.messageUpdated,
])

type MessageInfo = NonNullable<ReturnType<typeof readMessageInfo>>

/** A text part of a message, as both hosts describe one. */
interface TextPartInfo extends TextPart {
  sessionID: string
  messageID: string
}

/** A user message as it is submitted: its parts before opencode stores them. */
interface UserPrompt {
  sessionID: string
  messageID: string
  agent: string | undefined
  model: ModelRef | undefined
  parts: ReadonlyArray<{ text: string; synthetic: boolean; ignored: boolean }>
}

/**
 * What the hosts tell the plugin, as facts about sessions, messages and turns. opencode 1's events and chat
 * hooks are read into these below; the opencode 2 adapter calls them directly. The plugin's own judge
 * sessions are never captured, judged or noted: the route alone hears of them.
 */
export function createSessionFacts(
  { deps, store }: PartContext,
  capture: Capture,
  judge: ReplyJudge,
  route: OpencodeRoute,
  undo: Undo,
) {
  const known = (sessionID: string) => (route.owns(sessionID) ? undefined : store.find(sessionID))
  const tracked = (sessionID: string) => (route.owns(sessionID) ? undefined : store.touch(sessionID))
  return {
    session(info: { id: string; parentID: string | undefined; title?: string }) {
      if (route.owns(info.id) || isJudgeSessionInfo(info)) return
      const state = store.touch(info.id)
      state.parentKnown = true
      state.parentID = info.parentID
    },
    /** The session's revert point, as undo and redo move it; `eventID` tells one revert from another. */
    reverted(sessionID: string, messageID: string | undefined, eventID?: string) {
      const state = known(sessionID)
      if (state) undo.reverted(state, messageID, eventID)
    },
    sessionDeleted(sessionID: string) {
      store.remove(sessionID)
      deps.ledger.forget(sessionID)
    },
    /** A user message is remembered for its agent and model; an assistant message becomes the reply being tracked. */
    message(info: MessageInfo) {
      const state = tracked(info.sessionID)
      if (state) recordMessage(state, info)
    },
    /** A stored text part: a user's opens a real turn, unless it is the plugin's own note; a reply's is its text. */
    textPart(part: TextPartInfo) {
      const state = known(part.sessionID)
      if (!state) return
      const user = state.userMessages.get(part.messageID)
      if (user && isNoteInstruction(part)) markNote(state, part.messageID)
      if (user && !part.synthetic && !part.ignored && !state.noteMessages.has(part.messageID)) {
        openRealTurn(state, { id: part.messageID, ...user, text: clip(part.text, QUESTION_CHARS * 2) }, deps.ledger)
      } else if (!user && !part.synthetic && !part.ignored) recordReplyText(state, part.messageID, part.id, part.text)
    },
    /** A reply's final text, as `experimental.text.complete` (or opencode 2's text end) hands it over. */
    replyText(sessionID: string, messageID: string, partID: string, text: string) {
      const state = known(sessionID)
      if (state) recordReplyText(state, messageID, partID, text)
    },
    toolFailed(sessionID: string, failed: FailedToolPart) {
      const state = known(sessionID)
      if (state) capture.toolFailed(state, failed)
    },
    /**
     * A prompt as it is submitted. opencode adds synthetic text parts to real messages too (attached files), so
     * one real part decides; ignored parts (the plugin's own report) are shown and never sent, so no prompt.
     */
    userPrompt(prompt: UserPrompt) {
      if (route.owns(prompt.sessionID) || prompt.agent === JUDGE_AGENT) return
      const state = store.touch(prompt.sessionID)
      // The plugin's own note: its visible notice is no user turn, whichever instance sent it.
      if (prompt.parts.some(isNoteInstruction)) return markNote(state, prompt.messageID)
      const real = prompt.parts.filter((part) => !part.synthetic && !part.ignored)
      if (real.length === 0) return
      const text = clip(real.map((part) => part.text).join("\n"), QUESTION_CHARS * 2)
      openRealTurn(state, { id: prompt.messageID, agent: prompt.agent, model: prompt.model, text }, deps.ledger)
    },
    /** A model request of the session's own agent names the model it runs on; title and judge requests do not. */
    modelRequest(sessionID: string, agent: unknown, model: string | undefined) {
      if (route.owns(sessionID) || agent === "title" || agent === JUDGE_AGENT) return
      const state = store.touch(sessionID)
      if (state.lastUser?.agent && agent !== state.lastUser.agent) return
      if (model) state.activeModel = model
    },
    idle(sessionID: string) {
      const state = known(sessionID)
      if (state) judge.onIdle(state)
    },
    /** Every session's finished reply, judged now: `opencode run` disposes the instance right after its first idle. */
    judgeAll() {
      for (const state of store.sessions.values()) judge.onIdle(state)
    },
  }
}

type SessionFacts = ReturnType<typeof createSessionFacts>

/** opencode 1's events read into facts: one reader per event the plugin reads; every other event passes by. */
function eventReaders(facts: SessionFacts, route: OpencodeRoute) {
  const onSession = (props: Record<string, unknown>) => {
    const info = readSessionInfo(props)
    if (info) facts.session({ ...info, title: textOf(asRecord(props.info).title) })
  }
  return new Map<string, (props: Record<string, unknown>, eventID: string | undefined) => void>([
    [EVENT.sessionCreated, onSession],
    [
      EVENT.sessionUpdated,
      (props, eventID) => {
        onSession(props)
        const info = readSessionInfo(props)
        const revert = asRecord(asRecord(props.info).revert)
        if (info) facts.reverted(info.id, textOf(revert.messageID), eventID)
      },
    ],
    [
      EVENT.sessionDeleted,
      (props) => {
        const info = readSessionInfo(props)
        if (info) facts.sessionDeleted(info.id)
      },
    ],
    [
      EVENT.messageUpdated,
      (props) => {
        const info = readMessageInfo(props)
        if (info) facts.message(info)
      },
    ],
    [
      EVENT.partUpdated,
      (props) => {
        const part = readPart(props)
        if (part?.kind === "text") facts.textPart(part)
        else if (part?.kind === "tool-error") facts.toolFailed(part.sessionID, part)
      },
    ],
    [EVENT.sessionIdle, (props) => facts.idle(textOf(props.sessionID) ?? "")],
    [EVENT.sessionError, (props) => route.failed(textOf(props.sessionID) ?? "", props.error)],
    [
      EVENT.sessionStatus,
      (props) => {
        const sessionID = textOf(props.sessionID) ?? ""
        const type = asRecord(props.status).type
        if (type === "idle") facts.idle(sessionID)
        else if (type === "retry") route.retried(sessionID)
      },
    ],
  ])
}

/** Owns what opencode 1's events and chat hooks tell, read into the session facts. */
export function createEventTracker(ctx: PartContext, facts: SessionFacts, route: OpencodeRoute) {
  const readers = eventReaders(facts, route)
  return {
    onEvent(event: Record<string, unknown>) {
      if (typeof event.type !== "string") return
      if (STARTUP_TOAST_EVENTS.has(event.type)) ctx.notifier.showStartupNotice()
      readers.get(event.type)?.(asRecord(event.properties), textOf(event.id))
    },
    onChatMessage(input: { sessionID: string; agent?: unknown }, output: unknown) {
      const { message, parts } = asRecord(output)
      const { id, agent, model } = asRecord(message)
      const messageID = textOf(id)
      if (!messageID) return
      const texts = (Array.isArray(parts) ? parts.map(asRecord) : []).flatMap((part) =>
        part.type === "text" && typeof part.text === "string"
          ? [{ text: part.text, synthetic: part.synthetic === true, ignored: part.ignored === true }]
          : [],
      )
      if (input.agent === JUDGE_AGENT) return
      facts.userPrompt({
        sessionID: input.sessionID,
        messageID,
        agent: textOf(agent),
        model: modelRef(model),
        parts: texts,
      })
    },
    onChatParams(input: { sessionID: string; agent?: unknown; model?: unknown }, output: unknown) {
      if (route.owns(input.sessionID)) return route.params(input.sessionID, asRecord(output))
      const model = asRecord(input.model)
      const id = textOf(model.id)
      const provider = textOf(model.providerID)
      facts.modelRequest(input.sessionID, input.agent, id && provider ? `${provider}/${id}` : id)
    },
    onTextComplete(input: { sessionID: string; messageID: string; partID: string }, output: unknown) {
      const { sessionID, messageID, partID } = input
      const text = asRecord(output).text
      if (typeof text === "string" && textOf(messageID) && textOf(partID))
        facts.replyText(sessionID, messageID, partID, text)
    },
  }
}
