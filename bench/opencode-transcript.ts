// opencode's markdown transcripts (the TUI's /export, "session-ses_XXXX.md") read as the turns the replays feed
// the fake host: the user's text, every tool call with its output or error, and each reply that ended a turn.
//
// The transcript writes each message under "## User" or "## Assistant (Agent · model · 3.2s)", messages apart
// by "---"; a text part as it is, a reasoning part after "_Thinking:_", a tool part as "**Tool: NAME**" with its
// input as indented JSON under "**Input:**", then its output under "**Output:**" or its error under "**Error:**",
// each in a fence that is never escaped. Older releases (January 2026) wrap each tool part in a further fence
// and write its header "Tool: NAME" on its own line. Nothing of any transcript is copied here.

import { execFileSync } from "node:child_process"
import type { ExportStep, ExportTurn } from "./opencode-export.ts"

/** One message of a transcript: who wrote it, its text, its tool calls, whether a reasoning part is in it. */
interface TranscriptMessage {
  role: "user" | "assistant" | "compaction"
  text: string
  tools: ExportStep[]
  thinking: boolean
  textLast: boolean
}

const NEW_HEADER = /^\*\*Tool: (.+)\*\*$/
const OLD_HEADER = /^Tool: (\S+)$/

/** The tool a line opens, if it is a tool part's header (an old one only right after a fence line). */
function toolHeader(lines: readonly string[], i: number): string | undefined {
  const line = lines[i] ?? ""
  const fresh = NEW_HEADER.exec(line)?.[1]
  if (fresh) return fresh
  return lines[i - 1] === "```" ? OLD_HEADER.exec(line)?.[1] : undefined
}

/** The input JSON that starts at the fence line `at`: indented by two, so its own last line is "}" alone. */
function readInput(lines: readonly string[], at: number): [Record<string, unknown>, number] {
  const body: string[] = []
  let i = at + 1
  for (; i < lines.length; i++) {
    if (lines[i] === "```" && /^\{?\}$/.test(lines[i - 1] ?? "")) break
    body.push(lines[i] ?? "")
  }
  try {
    return [JSON.parse(body.join("\n")) as Record<string, unknown>, i + 1]
  } catch {
    return [{}, i + 1]
  }
}

/**
 * Where a new-style tool body's closing fence is, among the lines up to the next tool part: the first bare
 * fence after which the fences left pair up (a text part after the call, with code blocks of its own).
 */
function closingFence(body: readonly string[]): number {
  const fences = body.flatMap((line, k) => (line.startsWith("```") ? [k] : []))
  for (const [n, k] of fences.entries()) if (body[k] === "```" && (fences.length - n - 1) % 2 === 0) return k
  return body.length
}

/** One message's parts, from the line after its header. */
function readMessage(role: TranscriptMessage["role"], lines: readonly string[]): TranscriptMessage {
  const text: string[] = []
  const tools: ExportStep[] = []
  let thinking = false
  /** Whether text follows the last tool part: the step then ended with `stop`, its text the reply. */
  let textLast = false
  const addText = (line: string) => {
    if (line === "_Thinking:_") thinking = true
    text.push(line)
    if (line.trim()) textLast = true
  }
  let i = 0
  while (i < lines.length) {
    const tool = toolHeader(lines, i)
    if (!tool) {
      addText(lines[i] ?? "")
      i++
      continue
    }
    textLast = false
    const old = !NEW_HEADER.test(lines[i] ?? "")
    if (old && text.at(-1) === "```") text.pop()
    let args: Record<string, unknown> = {}
    let j = i + 1
    while (j < lines.length && lines[j] === "") j++
    if (lines[j] === "**Input:**" && lines[j + 1]?.startsWith("```")) [args, j] = readInput(lines, j + 1)
    while (j < lines.length && lines[j] === "") j++
    const kind = lines[j] === "**Output:**" ? "output" : lines[j] === "**Error:**" ? "error" : undefined
    // The body runs at most to the next tool part or the message's end: a fence inside it is not escaped.
    let end = kind ? j + 2 : j
    while (end < lines.length && !toolHeader(lines, end)) end++
    let body = kind ? lines.slice(j + 2, end) : []
    if (old) {
      // Its own closing fence, the wrapper's, and the next wrapper's opening one.
      let fences = 3
      while (body.length && (body.at(-1) === "" || (body.at(-1) === "```" && fences > 0)))
        if (body.pop() === "```") fences--
    } else if (kind) {
      const close = closingFence(body)
      for (const line of body.slice(close + 1)) addText(line)
      body = body.slice(0, close)
    } else {
      for (const line of lines.slice(j, end)) addText(line)
    }
    const said = body.join("\n")
    tools.push(kind === "error" ? { tool, args, error: said } : { tool, args, output: said, metadata: {}, title: tool })
    i = end
  }
  return { role, text: text.join("\n").trim(), tools, thinking, textLast }
}

/** The messages of a transcript, in order; its title block and the rules between messages are left out. */
export function readMessages(markdown: string): TranscriptMessage[] {
  const chunks = `\n${markdown.replace(/\r\n/g, "\n")}`.split(/\n---\n\n(?=## (?:User|Assistant)(?: \(.*\))?\n)/)
  const messages: TranscriptMessage[] = []
  for (const chunk of chunks.slice(1)) {
    const lines = chunk.replace(/\n---\n*$/, "").split("\n")
    // The summary opencode writes when it compacts a session is the compaction agent's, not a reply: the
    // plugin passes over a message of an agent other than the user's.
    const head = lines[0] ?? ""
    const role = head.startsWith("## User")
      ? "user"
      : head.startsWith("## Assistant (Compaction")
        ? "compaction"
        : "assistant"
    messages.push(readMessage(role, lines.slice(1)))
  }
  return messages
}

/** Where the session ran: the deepest folder every absolute path a tool names lies in. */
function directoryOf(messages: readonly TranscriptMessage[]): string {
  const paths = messages.flatMap((message) =>
    message.tools
      .map((step) => String(step.args.filePath ?? step.args.path ?? ""))
      .filter((path) => /^(?:\/|[A-Za-z]:\\)/.test(path)),
  )
  if (!paths.length) return "/project"
  const sep = paths[0]?.includes("\\") ? "\\" : "/"
  let common = (paths[0] ?? "").split(sep).slice(0, -1)
  for (const path of paths) {
    const parts = path.split(sep)
    let k = 0
    while (k < common.length && k < parts.length - 1 && parts[k] === common[k]) k++
    common = common.slice(0, k)
  }
  const dir = common.join(sep)
  return common.length > 2 ? dir : "/project"
}

/** What a transcript gives the replay, and how many of its replies hold a reasoning part that cannot be cut off. */
export interface Transcript {
  directory: string
  turns: ExportTurn[]
  thinkingReplies: number
  toolDetails: boolean
}

/**
 * The turns of one transcript: each assistant message whose last part is text, and which no further step
 * follows if it called tools, is a reply (it ended with `stop`), after the calls made since the one before. A reasoning part's end cannot be told from the
 * text after it, so a reply that holds one is judged whole and counted.
 */
export function readTranscript(markdown: string): Transcript {
  const messages = readMessages(markdown)
  const turns: ExportTurn[] = []
  let user: string | undefined
  let tools: ExportStep[] = []
  let thinkingReplies = 0
  for (const [index, message] of messages.entries()) {
    if (message.role === "user") {
      user = message.text || "Continue."
      continue
    }
    if (message.role === "compaction") continue
    tools.push(...message.tools)
    // Text after a call in the same step ends the turn only if no step follows it (some providers stream a
    // step's text after its calls and go on with `tool-calls`).
    const next = messages[index + 1]
    if (!message.textLast || (message.tools.length && next?.role === "assistant")) continue
    if (message.thinking) thinkingReplies++
    const reply = message.text.replace(/^_Thinking:_$/gm, "").trim()
    turns.push({ ...(user !== undefined ? { user } : {}), tools, reply })
    user = undefined
    tools = []
  }
  const calls = messages.flatMap((message) => message.tools)
  const toolDetails = calls.length === 0 || calls.some((step) => Object.keys(step.args).length > 0)
  return { directory: directoryOf(messages), turns, thinkingReplies, toolDetails }
}

/**
 * Every transcript in a bare mirror's history: each markdown file ever added whose head names an opencode
 * session, read at the last commit that added or changed it (many were deleted after).
 */
export function transcriptsOf(repo: string) {
  const git = (...args: string[]) =>
    execFileSync("git", ["--git-dir", repo, ...args], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      stdio: ["ignore", "pipe", "ignore"],
    })
  const paths = [
    ...new Set(git("log", "--all", "--diff-filter=AM", "--name-only", "--format=", "--", "*.md").split("\n")),
  ].filter((path) => /ses_|session|transcript/i.test(path))
  // A session kept under two paths (a file moved by hand, not by git) is read once, in its longest copy.
  const byId = new Map<string, { name: string; markdown: string }>()
  for (const path of paths.sort()) {
    const commit = git("log", "--all", "-1", "--diff-filter=AM", "--format=%h", "--", path).trim()
    if (!commit) continue
    const markdown = git("show", `${commit}:${path}`)
    const id = /^\*\*Session ID:\*\* (ses_\w+)/m.exec(markdown.slice(0, 600))?.[1]
    if (!id) continue
    const kept = byId.get(id)
    if (!kept || kept.markdown.length < markdown.length) byId.set(id, { name: `${path}@${commit}`, markdown })
  }
  return [...byId.values()].map(({ name, markdown }) => ({ name, ...readTranscript(markdown) }))
}
