// Capture: what one tool call leaves in the session (its record, stale premises retired, new evidence).

import { LIMITS, trimOldest } from "../base/bounds.ts"
import { clip } from "../base/text.ts"
import { asRecord } from "../base/unknown.ts"
import type { PartContext, SessionState } from "../state/session.ts"
import type { Premise, ToolRecord } from "../state/shapes.ts"
import { foldEarlier } from "./earlier.ts"
import { addPremise, evidenceOf, readToolCall, retirePremises, stalePathsOf } from "./evidence.ts"
import { describeSource, describeToolCall, type ToolCall, toolRecord } from "./provenance.ts"
import { redactSecrets } from "./redact/redact.ts"
import { touchesSensitivePath } from "./sensitive.ts"
import { originOf } from "./tools.ts"

export interface FailedToolPart {
  tool: string
  input: Record<string, unknown>
  error: string | undefined
}

/** Owns what a tool call leaves behind: its process record, the premises it made stale, and its evidence. */
export function createCapture({ config, directory, store }: PartContext) {
  const record = (state: SessionState, call: ToolCall, line: string, output?: string, failed = false) => {
    const entry = toolRecord(call, line, directory, output, failed)
    state.records.push(entry)
    // The oldest call leaves the window the judge is shown; what it did to files stays in the ledger.
    while (state.records.length > LIMITS.toolRecords) foldEarlier(state.earlier, state.records.shift() as ToolRecord)
    return entry
  }
  return {
    afterTool(input: { tool: string; sessionID: string; args?: unknown }, output: unknown) {
      const state = store.touch(input.sessionID)
      const call = readToolCall(input, output)
      // Once per call: both scan every word of a long command or patch.
      const sensitive = touchesSensitivePath(call.tool, call.args)
      const raw = asRecord(output).output
      const text = typeof raw === "string" && !sensitive ? raw : undefined
      const entry = record(state, call, describeToolCall(call, directory, sensitive), text)
      const stale = stalePathsOf(call, state, directory, entry.kind === "change" ? entry.paths : [])
      if (stale.size) {
        Object.assign(
          state,
          retirePremises(state, (premise) => premise.path !== undefined && stale.has(premise.path)),
        )
      }
      if (!config.premiseTools.test(call.tool) || !text?.trim()) return
      const evidence = evidenceOf(call, text, config.premiseCap)
      if (!evidence.trim()) return
      const { ref, path } = describeSource(call, directory)
      state.nextSource++
      const premise: Premise = {
        id: `S${state.nextSource}`,
        tool: call.tool,
        origin: originOf(call.tool, call.args),
        ref,
        path,
        text: evidence,
      }
      Object.assign(state, addPremise(state, premise, config.premiseCap))
      if (premise.origin === "web") {
        state.webRefs.push(ref.toLowerCase())
        trimOldest(state.webRefs, LIMITS.webRefs)
      }
    },
    /** A failed tool never reaches tool.execute.after; its failure is still part of what happened. */
    toolFailed(state: SessionState, part: FailedToolPart) {
      const call = { tool: part.tool, args: part.input, metadata: {}, title: "" }
      const error = part.error === undefined ? "error" : clip(redactSecrets(part.error), 100)
      record(state, call, `${describeToolCall(call, directory)} → failed: ${error}`, undefined, true)
    },
  }
}

export type Capture = ReturnType<typeof createCapture>
