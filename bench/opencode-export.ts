// `opencode export` JSON read as the turns the replays feed the fake host: the user's text, every tool call as
// it ended (completed with its output and metadata, or failed with its error), and each reply that ended a turn.

import { execFileSync } from "node:child_process"

/** One tool call as opencode ended it: its output and metadata, or the error a failed call carries instead. */
export interface ExportStep {
  tool: string
  args: Record<string, unknown>
  output?: string
  metadata?: Record<string, unknown>
  title?: string
  error?: string
}

/** One judged reply: the user's message it answers (absent when the agent went on without one), the calls before it. */
export interface ExportTurn {
  user?: string
  tools: ExportStep[]
  reply: string
}

interface ExportPart {
  type: string
  text?: string
  tool?: string
  synthetic?: boolean
  state?: {
    status?: string
    input?: Record<string, unknown>
    output?: string
    error?: string
    metadata?: Record<string, unknown>
    title?: string
  }
}

interface ExportMessage {
  info: { role: string; finish?: string }
  parts: ExportPart[]
}

/** The text parts a person wrote or read, joined as opencode shows them. */
const textOf = (parts: readonly ExportPart[], joint: string) =>
  parts
    .filter((part) => part.type === "text" && !part.synthetic)
    .map((part) => part.text ?? "")
    .join(joint)
    .trim()

/** A tool part as the host replays it; one still running when the session was exported never ended. */
function stepOf(part: ExportPart): ExportStep | undefined {
  const state = part.state ?? {}
  const base = { tool: part.tool ?? "tool", args: state.input ?? {} }
  if (state.status === "completed") {
    return { ...base, output: state.output ?? "", metadata: state.metadata ?? {}, title: state.title ?? base.tool }
  }
  if (state.status === "error") return { ...base, error: state.error ?? "Error" }
  return undefined
}

/**
 * The turns of one exported session: each assistant message that finished with `stop` and says something is a
 * reply, after the tool calls made since the one before.
 */
export function readExport(json: string): { directory: string; turns: ExportTurn[] } {
  const exported = JSON.parse(json) as { info: { directory?: string }; messages: ExportMessage[] }
  const turns: ExportTurn[] = []
  let user: string | undefined
  let tools: ExportStep[] = []
  for (const message of exported.messages) {
    if (message.info.role === "user") {
      user = textOf(message.parts, "\n") || "Continue."
      continue
    }
    for (const part of message.parts) {
      const step = part.type === "tool" ? stepOf(part) : undefined
      if (step) tools.push(step)
    }
    const reply = textOf(message.parts, "\n\n")
    if (message.info.finish !== "stop" || !reply) continue
    turns.push({ ...(user !== undefined ? { user } : {}), tools, reply })
    user = undefined
    tools = []
  }
  return { directory: exported.info.directory ?? "/project", turns }
}

/** victoryforphil/dark-factory at 65455d0: 18 `opencode export` files of real sessions (opencode 1.2.5). */
export const DARK_FACTORY = { commit: "65455d0", dir: "docs/chats/opencode/" } as const

/** Every exported session of a bare mirror at one commit, by path. */
export function exportsOf(repo: string, at: { commit: string; dir: string } = DARK_FACTORY) {
  const git = (...args: string[]) =>
    execFileSync("git", ["--git-dir", repo, ...args], { encoding: "utf8", maxBuffer: 1 << 28 })
  return git("ls-tree", "-r", "--name-only", at.commit, at.dir)
    .split("\n")
    .filter((path) => path.endsWith(".json"))
    .sort()
    .map((path) => ({ name: path.slice(at.dir.length), ...readExport(git("show", `${at.commit}:${path}`)) }))
}
