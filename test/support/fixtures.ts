/**
 * Fixtures shared by the behaviour tests, the live harness and the benchmarks: the facts file the agent
 * reads, opencode's read-tool output, ports nothing listens on, scratch folders, and waiting for lines that
 * fire-and-forget writes will append.
 */

import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import type { JudgeReply } from "./judge.ts"

/** The hooks `server()` returns, sorted: the plugin's contract with opencode. */
export const HOOK_KEYS = [
  "chat.message",
  "chat.params",
  "command.execute.before",
  "config",
  "dispose",
  "event",
  "experimental.chat.system.transform",
  "experimental.text.complete",
  "tool.execute.after",
  "tool.execute.before",
]

/** The file most behaviour tests read. Its claims are easy to get wrong: a capital and a count. */
export const FACTS = {
  path: "/project/facts.txt",
  text: "The capital of Freedonia is Fredville. It has 3 bridges.\nFreedonia's national animal is the red fox.",
}

/** The survey notes the live scenarios and the demo put in the scratch project as facts.txt. */
export const SURVEY_NOTES = `${[
  "Freedonia survey notes, 2024 edition.",
  "The capital of Freedonia is Marxburg.",
  "Freedonia has 3 bridges over the river Zeppo.",
  "The national bird of Freedonia is the grey heron.",
].join("\n")}\n`

/** `count` different claims none of which stands in FACTS, so each one needs the judge. */
export const distinctClaims = (count: number) =>
  Array.from({ length: count }, (_, i) => `Bridge number ${i} crosses the northern river.`).join(" ")

/** Exactly what opencode 1.18.33's read tool returns: tagged, with `N: ` line numbers, plus its metadata. */
export function readOutput(path: string, text: string) {
  const lines = text.split("\n")
  const output =
    `<path>${path}</path>\n<type>file</type>\n<content>\n` +
    lines.map((line, i) => `${i + 1}: ${line}`).join("\n") +
    `\n\n(End of file - total ${lines.length} lines)\n</content>`
  return {
    output,
    title: path.split("/").at(-1) ?? path,
    metadata: { display: { type: "file", path, lineStart: 1, lineEnd: lines.length } },
  }
}

/** A loopback port nothing listens on: a server is started and stopped, so a connection is refused at once. */
export function closedPort(): number {
  const server = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") })
  const port = server.port as number
  server.stop(true)
  return port
}

/** Scratch folders under the system temp dir, removed together by `cleanup()` (call it in afterAll). */
export function tempDirs(prefix = "ragfaith-test-") {
  const made: string[] = []
  return {
    make(): string {
      const dir = mkdtempSync(join(tmpdir(), prefix))
      made.push(dir)
      return dir
    },
    cleanup() {
      for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** The non-empty lines of a file; none when it does not exist yet. */
export function fileLines(path: string): string[] {
  try {
    return readFileSync(path, "utf8").split("\n").filter(Boolean)
  } catch {
    return []
  }
}

/** The plugin appends without waiting: polls until the file holds `count` lines (or gives up after ~2 s). */
export async function waitForLines(path: string, count: number): Promise<string[]> {
  for (let i = 0; i < 400 && fileLines(path).length < count; i++) await Bun.sleep(5)
  return fileLines(path)
}

/**
 * How many lines opencode's toast box takes for `message`: it word-wraps at 54 characters a line (measured in
 * the 1.18.33 TUI). Written apart from the plugin's own wrapping, so a test of it checks the plugin.
 */
export function toastLines(message: string): number {
  let lines = 0
  let width = 0
  for (const word of message.split(" ").filter(Boolean)) {
    if (width > 0 && width + 1 + word.length <= 54) width += 1 + word.length
    else {
      lines += Math.max(1, Math.ceil(word.length / 54))
      width = word.length % 54 || 54
    }
  }
  return lines
}

/** A reply to a question about FACTS: the capital is right, the bridge count is wrong (FACTS says 3). */
export const WRONG_REPLY = "Fredville is the capital city of Freedonia. It has 7 bridges."

/** The contradiction a judge that read FACTS gives the wrong bridge count, quoting the file. */
export const BRIDGES_CONTRADICTED = {
  verdict: "unfaithful",
  source: "S1",
  quote: "It has 3 bridges",
  reason: "the file says 3",
} as const

/** A scripted judge that read FACTS: the 7 bridges are contradicted (by `flag`), everything else is faithful. */
export const bridgesJudge =
  (flag: JudgeReply = BRIDGES_CONTRADICTED) =>
  ({ claim }: { claim: string }): JudgeReply =>
    /7 bridges/.test(claim) ? flag : { verdict: "faithful", source: "S1" }
