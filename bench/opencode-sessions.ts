/**
 * Public opencode sessions replayed through the fake host, with a judge that always answers faithful: every
 * flag is the records' (or the splitter's) and is read by hand.
 *
 *   bun bench/opencode-sessions.ts /path/to/mirror [--exports=…] [--transcripts=…] [--verbose] [--fail-changes]
 *
 * The mirror is a bare git copy of remorses/kimaki, whose `discord/src/__snapshots__/*.md` (deleted in 2026, read
 * from every commit that held them) are markdown renders of real opencode sessions: "### 👤 User" and "### 🤖
 * Assistant" sections, each tool call as "#### 🛠️ Tool: NAME" with its YAML input and its output. Tools seen:
 * read, edit, write, bash, grep, glob, todowrite, task. Nothing of it is copied here.
 *
 * Each user turn becomes a turn of one session: the user's text, then every tool call of the turn in order
 * (through `tool.execute.after`, or as an error part when the render shows no output), then the turn's last
 * assistant text as the reply that is judged. A tool the render shows no output for completed with none (a
 * clean `tsc`).
 *
 * With --transcripts=MIRROR[,MIRROR…] it also replays opencode's own markdown transcripts (the TUI's /export,
 * "session-ses_XXXX.md") found anywhere in each mirror's history (bench/opencode-transcript.ts).
 *
 * With --fail-changes every edit, write, multiedit and apply_patch call fails instead, as opencode reports it
 * (an error part, no `tool.execute.after`): then each reply that says it changed a file says something false,
 * and the records must flag it.
 */

import { execFileSync } from "node:child_process"
import { splitClaims } from "../src/claims/split.ts"
import { readProcessClaim } from "../src/judge/process-claim.ts"
import { createHost } from "../test/support/host.ts"
import { judgeEnv, withJudge } from "../test/support/judge.ts"
import { type ExportStep, type ExportTurn, exportsOf } from "./opencode-export.ts"
import { transcriptsOf } from "./opencode-transcript.ts"

interface ToolStep {
  tool: string
  args: Record<string, unknown>
  output: string | undefined
}

interface Turn {
  user: string
  tools: ToolStep[]
  reply: string
}

/** How opencode's change tools fail (their error text, as the tool part's `state.error` carries it). */
const FAILURES: Readonly<Record<string, string>> = {
  edit: "Error: oldString not found in content",
  multiedit: "Error: oldString not found in content",
  write: "Error: The user rejected permission to use this specific tool call.",
  apply_patch: "Error: apply_patch verification failed: Failed to find expected lines",
}

/** Top-level keys of the small YAML the render writes: `key: value` and `key: |-` blocks indented by two. */
function readYaml(text: string): Record<string, unknown> {
  const args: Record<string, unknown> = {}
  const lines = text.split("\n")
  for (let i = 0; i < lines.length; i++) {
    const match = /^([A-Za-z_]\w*):(?: (.*))?$/.exec(lines[i] ?? "")
    if (!match) continue
    const value = match[2] ?? ""
    if (/^[|>][-+]?$/.test(value)) {
      const block: string[] = []
      while (i + 1 < lines.length && (lines[i + 1]?.startsWith("  ") || lines[i + 1] === ""))
        block.push(lines[++i]?.slice(2) ?? "")
      args[match[1] as string] = block.join("\n").replace(/\n+$/, "")
    } else if (value !== "") {
      args[match[1] as string] = value.replace(/^(['"])(.*)\1$/, "$2")
    }
  }
  return args
}

/** The fenced block that starts at `at` (its fence line), and the line after it. */
function fenced(lines: readonly string[], at: number): [string, number] {
  const fence = /^(`{3,})/.exec(lines[at] ?? "")?.[1] ?? "```"
  const body: string[] = []
  let i = at + 1
  for (; i < lines.length && lines[i] !== fence; i++) body.push(lines[i] ?? "")
  return [body.join("\n"), i + 1]
}

/** The turns of a rendered session. */
export function readSession(markdown: string): Turn[] {
  const turns: Turn[] = []
  const lines = markdown.split("\n")
  let turn: Turn | undefined
  let text: string[] = []
  let inAssistant = false
  const endText = () => {
    const said = text
      .join("\n")
      .replace(/^\*\*Started using .*\*\*$/gm, "")
      .replace(/^\*Completed in .*\*$/gm, "")
      .trim()
    if (turn && inAssistant && said) turn.reply = said
    if (turn && !inAssistant && said) turn.user += said
    text = []
  }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] ?? ""
    if (line.startsWith("### 👤 User")) {
      endText()
      turn = { user: "", tools: [], reply: "" }
      turns.push(turn)
      inAssistant = false
    } else if (line.startsWith("### 🤖 Assistant")) {
      endText()
      inAssistant = true
    } else if (line.startsWith("#### 🛠️ Tool: ") && turn) {
      endText()
      const tool = line.slice("#### 🛠️ Tool: ".length).trim()
      let args: Record<string, unknown> = {}
      let output: string | undefined
      let j = i + 1
      for (; j < lines.length; j++) {
        const next = lines[j] ?? ""
        if (next === "**Input:**" && /^`{3,}/.test(lines[j + 1] ?? "")) {
          const [body, after] = fenced(lines, j + 1)
          args = readYaml(body)
          j = after - 1
        } else if (next === "**Output:**" && /^`{3,}/.test(lines[j + 1] ?? "")) {
          const [body, after] = fenced(lines, j + 1)
          output = body
          j = after - 1
        } else if (next.startsWith("### ") || next.startsWith("#### ")) break
        else if (next.trim() && !next.startsWith("*Completed") && next !== "**Input:**" && next !== "**Output:**") break
      }
      turn.tools.push({ tool, args, output })
      i = j - 1
    } else if (inAssistant || turn) text.push(line)
  }
  endText()
  return turns.filter((t) => t.reply)
}

/** Every distinct rendered session in the mirror's history. */
function sessions(repo: string): Array<{ name: string; markdown: string }> {
  const git = (...args: string[]) =>
    execFileSync("git", ["--git-dir", repo, ...args], {
      encoding: "utf8",
      maxBuffer: 1 << 28,
      stdio: ["ignore", "pipe", "ignore"],
    })
  const seen = new Set<string>()
  const out: Array<{ name: string; markdown: string }> = []
  const paths = ["session-1", "session-2", "session-3", "session-with-tools", "first-session-with-info"]
  for (const name of paths) {
    const path = `discord/src/__snapshots__/${name}.md`
    for (const commit of git("log", "--format=%h", "--", path).split("\n").filter(Boolean)) {
      let markdown: string
      try {
        markdown = git("show", `${commit}:${path}`)
      } catch {
        continue
      }
      const key = markdown.slice(0, 4000)
      if (!markdown.trim() || seen.has(key)) continue
      seen.add(key)
      out.push({ name: `${name}@${commit}`, markdown })
    }
  }
  return out
}

/** Where the sessions ran: the directory of the first absolute path a tool names. */
function directoryOf(turns: readonly Turn[]): string {
  for (const turn of turns)
    for (const step of turn.tools) {
      const path = String(step.args.filePath ?? step.args.path ?? "")
      const root = /^(\/Users\/[^/]+\/Documents\/GitHub\/[^/]+)\//.exec(path)?.[1]
      if (root) return root
    }
  return "/project"
}

/** A session to replay: its name, where it ran, its turns. */
interface Replayed {
  name: string
  directory: string
  turns: ExportTurn[]
}

/** The rendered sessions of the kimaki mirror as turns; a call the render shows no output for completed with none. */
function kimakiSessions(repo: string): Replayed[] {
  return sessions(repo).map(({ name, markdown }) => {
    const turns = readSession(markdown)
    return {
      name,
      directory: directoryOf(turns),
      turns: turns.map((turn) => ({
        user: turn.user.slice(0, 4000) || "Continue",
        tools: turn.tools.map((step) => ({ ...step, output: step.output ?? "" })),
        reply: turn.reply,
      })),
    }
  })
}

/** With --fail-changes, a change tool's call fails as opencode reports it, whatever it did in the session. */
const failedIf = (failChanges: boolean) => (step: ExportStep) => {
  const error = failChanges && !step.error ? FAILURES[step.tool] : undefined
  return error ? { tool: step.tool, args: step.args, error } : step
}

/** What the replay counts: replies, judge requests, notes, claims, and each tool's calls and failures. */
interface Tally {
  replies: number
  requests: number
  flagged: number
  claims: number
  fileClaims: number
  citations: number
  tools: Map<string, { calls: number; failed: number }>
}

async function replay(list: readonly Replayed[], failChanges: boolean, verbose: boolean, tally: Tally) {
  const print = (line: string) => process.stdout.write(`${line}\n`)
  const fail = failedIf(failChanges)
  await withJudge(
    () => ({ verdict: "faithful", source: "S1" }),
    async (judge) => {
      for (const { name, directory, turns } of list) {
        const host = createHost({ env: judgeEnv(judge.url), correct: () => undefined, directory })
        const id = await host.createSession()
        let userID = ""
        for (const [index, turn] of turns.entries()) {
          if (turn.user !== undefined || !userID) userID = await host.userMessage(id, turn.user ?? "Continue")
          for (const step of turn.tools.map(fail)) {
            const count = tally.tools.get(step.tool) ?? { calls: 0, failed: 0 }
            count.calls++
            if (step.error) count.failed++
            tally.tools.set(step.tool, count)
            const result = step.error
              ? { error: step.error }
              : { output: step.output ?? "", metadata: step.metadata ?? {}, title: step.title ?? step.tool }
            await host.toolCall(id, userID, step.tool, step.args, result)
          }
          const before = judge.requests.length
          const prompts = host.prompts.length
          for (const claim of splitClaims(turn.reply, 50).claims) {
            tally.claims++
            const raw = claim.raw ?? claim.text
            if (/`[^`\s]+(?::\d+(?:-\d+)?|#L\d+)[^`]*`|\(line \d+\)/.test(raw)) tally.citations++
            if (readProcessClaim(raw)?.kind === "file") {
              tally.fileClaims++
              if (verbose) print(`  file claim in ${name}: ${raw}`)
            }
          }
          await host.reply(id, userID, turn.reply)
          await host.settle()
          tally.replies++
          tally.requests += judge.requests.length - before
          for (const prompt of host.prompts.slice(prompts)) {
            tally.flagged++
            print(`\n### flag in ${name}, reply ${index + 1}\n${prompt.text.slice(0, 1500)}`)
          }
          if (verbose)
            print(`  ${name}: ${judge.requests.length - before} requests for a reply of ${turn.reply.length} chars`)
        }
      }
    },
  )
}

async function main() {
  const flag = (name: string) => process.argv.find((arg) => arg.startsWith(name))?.slice(name.length)
  const exports = flag("--exports=")
  const repo = process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? process.env.RFE_KIMAKI_REPO
  if (!repo && !exports && !flag("--transcripts=")) {
    process.stderr.write(
      "usage: bun bench/opencode-sessions.ts [/path/to/remorses+kimaki mirror] [--exports=/path/to/victoryforphil+dark-factory mirror] [--transcripts=/path/to/mirror,...] [--verbose] [--fail-changes]\n",
    )
    process.exit(2)
  }
  const verbose = process.argv.includes("--verbose")
  const failChanges = process.argv.includes("--fail-changes")
  const print = (line: string) => process.stdout.write(`${line}\n`)
  const tally: Tally = { replies: 0, requests: 0, flagged: 0, claims: 0, fileClaims: 0, citations: 0, tools: new Map() }
  const transcripts = (flag("--transcripts=") ?? "").split(",").filter(Boolean).flatMap(transcriptsOf)
  const list = [...(repo ? kimakiSessions(repo) : []), ...(exports ? exportsOf(exports) : []), ...transcripts]
  if (transcripts.length) {
    const thinking = transcripts.reduce((sum, t) => sum + t.thinkingReplies, 0)
    print(`${transcripts.length} transcripts; ${thinking} of their replies hold a reasoning part, judged whole`)
  }
  await replay(list, failChanges, verbose, tally)
  const { replies, requests, flagged, claims, fileClaims, citations } = tally
  print(
    `\n## ${list.length} sessions, ${replies} replies replayed; ${requests} judge requests (${(requests / Math.max(replies, 1)).toFixed(2)} per reply); ${flagged} notes`,
  )
  const calls = [...tally.tools].map(([tool, n]) => `${tool} ${n.calls}${n.failed ? ` (${n.failed} failed)` : ""}`)
  print(`tool calls: ${calls.join(", ")}`)
  print(
    `claims: ${claims}; ${fileClaims} about files read or changed; ${citations} cite a line (path:line, #L, "(line N)")`,
  )
}

if (import.meta.main) await main()
