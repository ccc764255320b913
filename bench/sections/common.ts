// What the benchmark sections share: the report they write, and one session driven on the fake host.
import { readOutput } from "../../test/support/fixtures.ts"
import type { createHost } from "../../test/support/host.ts"
import { KB, tsCode } from "../lib.ts"

/** Where a section writes: its text, the targets it measured, and anything found wrong. */
export interface Report {
  print: (text?: string) => void
  targets: Array<[string, string, string, string]>
  findings: string[]
}

export type Host = ReturnType<typeof createHost>
/** The plugin's own hook closures, called the way opencode calls them (raw payloads, loosely typed). */
export type LooseHook = (...args: unknown[]) => Promise<void>
export const hookOf = (host: Host, name: keyof Host["plugin"]["hooks"]) =>
  host.plugin.hooks[name] as unknown as LooseHook
export const JUDGE_MODEL = "judge-main"

/** Waits until no judgment of this host is in flight. */
export async function drain(host: Host) {
  while (host.plugin.pending.size > 0) await Promise.allSettled([...host.plugin.pending])
}

/** A session with one read of `file`, and a final reply streamed but not yet idle. */
export async function turnUntilIdle(host: Host, file: { path: string; text: string }, reply: string) {
  const session = await host.createSession()
  const userID = await host.userMessage(session, "Explain what this module does")
  await host.toolCall(session, userID, "read", { filePath: file.path }, readOutput(file.path, file.text))
  await host.reply(session, userID, reply, { idle: false })
  return session
}

/** Time from session.idle until the judging it started has settled. */
export async function idleToSettled(host: Host, session: string) {
  const started = performance.now()
  await host.idle(session)
  await drain(host)
  return performance.now() - started
}

/** A reply with exactly `count` distinct checkable claims, none of them verbatim in any source. */
export function claimReply(count: number): string {
  const paragraphs: string[] = []
  for (let p = 0; p * 10 < count; p++) {
    const sentences: string[] = []
    for (let i = p * 10; i < Math.min(count, p * 10 + 10); i++) {
      sentences.push(
        `Batch ${i} is sent to queue shard ${(i * 7) % 13} and waits up to ${1000 + i * 10} milliseconds for the acknowledgement.`,
      )
    }
    paragraphs.push(sentences.join(" "))
  }
  return `## Upload pipeline\n\n${paragraphs.join("\n\n")}`
}

export const MODULE_FILE = { path: "/project/src/upload.ts", text: tsCode(6 * KB, { seed: 7 }) }

/** Where a request body's per-claim part starts: the claim's preceding sentences if any, else the claim. */
export function claimPartAt(body: string): number {
  const user = body.indexOf('"role":"user"')
  const claim = body.indexOf("<claim>", user)
  const before = body.indexOf("<context>\\n", user)
  return before >= 0 && before < claim ? before : claim
}
