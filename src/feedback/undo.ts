// Undo and redo over the plugin's own messages: a note is no step of its own, a report leaves nothing behind.
import { asRecord } from "../base/unknown.ts"
import type { HostClient } from "../config/effects.ts"
import type { PartContext, SessionState } from "../state/session.ts"

/**
 * The TUI's own editing commands that empty its prompt box: select everything, then delete it. opencode's
 * `prompt.clear` would keep the text in the prompt history, where Up would bring the plugin's text back.
 */
export const CLEAR_PROMPT = ["input.select.all", "input.backspace"] as const

/**
 * The user's message that a note of the plugin answers: the last message before it that is neither a note
 * nor a report. Message ids grow with time, so they compare in the order the messages were written.
 */
export function ownerOf(state: SessionState, noteID: string): string | undefined {
  let owner: string | undefined
  for (const id of state.userMessages.keys()) {
    if (id < noteID && !state.noteMessages.has(id) && !state.reportMessages.has(id)) owner = id
  }
  return owner
}

/** The first message after a note that redo can stop at: the next user message or report, not another note. */
export function nextStep(state: SessionState, noteID: string): string | undefined {
  return [...state.userMessages.keys()].filter((id) => id > noteID && !state.noteMessages.has(id)).sort()[0]
}

/** What the TUI copies into the prompt box when it undoes a message: its text parts, synthetic ones aside. */
export function promptTextOf(message: unknown): string {
  const parts = asRecord(message).parts
  return (Array.isArray(parts) ? parts.map(asRecord) : [])
    .flatMap((part) =>
      part.type === "text" && part.synthetic !== true && typeof part.text === "string" ? [part.text] : [],
    )
    .join("")
}

/**
 * Owns what undo and redo do with the plugin's messages. opencode 1.18.33's TUI undoes the last user message
 * and copies its visible text into the prompt box, where Enter would send it as the user's own; a note's
 * notice and a `/ragfaith` report are such messages. So, when the session is reverted to one of them:
 * - undo onto a note (the notice and the correction go) takes the turn back to the user's own message, the
 *   way undo works without the plugin: the prompt box gets that message's text, not the notice;
 * - undo onto a report (the report goes) empties the prompt box;
 * - redo onto a note (the wrong reply is back, the notice not yet) goes on to the next step, so one redo
 *   brings back what one undo took, and the prompt box is emptied where redo ends, as the TUI's own redo does.
 * The TUI is told through opencode's TUI events (`tui.publish`); where there is no TUI, they reach no one.
 */
export function createUndo({ deps, notifier }: PartContext) {
  const { session, tui } = deps.client
  const publish = (body: Parameters<NonNullable<HostClient["tui"]["publish"]>>[0]["body"]) =>
    tui.publish ? tui.publish({ body }) : Promise.resolve(undefined)
  const clearPrompt = async () => {
    for (const command of CLEAR_PROMPT) await publish({ type: "tui.command.execute", properties: { command } })
  }
  const failed = (what: string) => (error: unknown) =>
    notifier.log("warn", `ragfaith: ${what} after an undo failed`, { error: String(error) })

  /** Undo onto a note: back to the user's own message, with its text in the prompt box. */
  const undoNote = async (state: SessionState, noteID: string) => {
    await clearPrompt()
    const owner = ownerOf(state, noteID)
    if (!owner || !session.revert) return
    const message = await session.message?.({ path: { id: state.id, messageID: owner } })
    // The user may have moved the revert point meanwhile: then their step stands.
    if (state.revertedTo !== noteID) return
    const reverted = await session.revert({ path: { id: state.id }, body: { messageID: owner } })
    if (!reverted || reverted.error !== undefined) return
    const text = promptTextOf(message?.data)
    if (text) await publish({ type: "tui.prompt.append", properties: { text } })
  }

  /** Redo onto a note: on to the next step, or all the way back, where the prompt box is emptied. */
  const redoNote = async (state: SessionState, noteID: string) => {
    const next = nextStep(state, noteID)
    if (next && session.revert) await session.revert({ path: { id: state.id }, body: { messageID: next } })
    else if (!next && session.unrevert) {
      await session.unrevert({ path: { id: state.id } })
      await clearPrompt()
    }
  }

  return {
    /**
     * The session's revert point moved (undo, redo) or was cleared. `eventID` is claimed on the ledger, so a
     * plugin loaded twice answers one undo once.
     */
    reverted(state: SessionState, messageID: string | undefined, eventID: string | undefined) {
      const before = state.revertedTo
      state.revertedTo = messageID
      if (!messageID || messageID === before) return
      const note = state.noteMessages.has(messageID)
      if (!note && !state.reportMessages.has(messageID)) return
      if (eventID && !deps.ledger.claimRevert(eventID)) return
      const back = before === undefined || messageID < before
      if (back && note) void undoNote(state, messageID).catch(failed("restoring your prompt"))
      else if (back) void clearPrompt().catch(failed("emptying the prompt box"))
      else if (note) void redoNote(state, messageID).catch(failed("redoing the correction"))
    },
  }
}

export type Undo = ReturnType<typeof createUndo>
