/**
 * The ground of the capture and redaction tests: fake secrets built at run time, and one session on the fake
 * host whose tool steps run through both tool hooks.
 */

import type { Premise } from "../../src/state/shapes.ts"
import { drawer } from "./corpora/secrets.ts"
import { createHost } from "./host.ts"

export type Env = Record<string, string>
export type ToolResult = { output: string; metadata?: Record<string, unknown>; title?: string } | { error: string }

// ── fake secrets, built at run time so the repository holds nothing that looks like a credential ──

/**
 * Mixed letters and digits, drawn once from a seeded PRNG: every secret starts with the same characters, so a
 * fragment of it is easy to look for, and none repeats a block (a value that does is a stand-in).
 */
const BODY = drawer(36)(4096)
export const body = (n: number) => BODY.slice(0, n)
export const letters = (n: number) => "ZqXwVyUtRsPo".repeat(Math.ceil(n / 12)).slice(0, n)
export const SECRET = {
  ghp: `gh${"p_"}${body(36)}`,
  gho: `gh${"o_"}${body(36)}`,
  ghu: `gh${"u_"}${body(36)}`,
  ghs: `gh${"s_"}${body(36)}`,
  ghr: `gh${"r_"}${body(36)}`,
  githubPat: `github${"_pat_"}11${body(20)}_${body(59)}`,
  openai: `sk${"-"}${body(48)}`,
  openaiProject: `sk${"-proj-"}${body(60)}-${body(40)}_${body(50)}`,
  anthropic: `sk${"-ant-api03-"}${body(40)}-${body(30)}_${body(21)}AA`,
  openrouter: `sk${"-or-v1-"}${"0123456789abcdef".repeat(4)}`,
  slackBot: `xo${"xb-"}123456789012-123456789012-${body(24)}`,
  slackUser: `xo${"xp-"}123456789012-123456789012-${body(24)}`,
  slackApp: `xa${"pp-1-"}A0123-${body(20)}`,
  stripeLive: `sk${"_live_"}${body(24)}`,
  stripeRestricted: `rk${"_live_"}${body(24)}`,
  google: `AI${"za"}${body(35)}`,
  gitlab: `gl${"pat-"}${body(20)}`,
  npm: `np${"m_"}${body(36)}`,
  huggingface: `hf${"_"}${letters(34)}`,
  awsKeyId: `AK${"IA"}Q3EGUWQA7RZ2XJ5T`,
  awsSessionKeyId: `AS${"IA"}Q3EGUWQA7RZ2XJ5T`,
  jwt: `ey${"J"}hbGciOiJIUzI1NiJ9.ey${"J"}zdWIiOiIxMjM0NTY3ODkwIn0.${body(43)}`,
}
export const PEM = (kind: string) =>
  `-----BEGIN ${kind}PRIVATE KEY-----\n${body(64)}\n${body(40)}\n-----END ${kind}PRIVATE KEY-----`

// ── helpers ──

/** A host with one session and one open turn; `call` runs a tool step through both tool hooks. */
export async function session(env: Env = {}) {
  const host = createHost({ env: { RFE_JUDGE_API_KEY: "k", ...env } })
  const id = await host.createSession()
  const userID = await host.userMessage(id, "go")
  const state = () => {
    const found = host.plugin.sessions.get(id)
    if (!found) throw new Error("no session state")
    return found
  }
  return {
    host,
    id,
    userID,
    state,
    premises: () => state().premises,
    log: () => state().records.map((record) => record.line),
    call: (tool: string, args: Record<string, unknown>, result: ToolResult) =>
      host.toolCall(id, userID, tool, args, result),
  }
}

/** Everything the session keeps that could reach the judge, as one string. */
export const everything = (s: { premises: () => readonly Premise[]; log: () => string[] }) =>
  JSON.stringify({ premises: s.premises(), log: s.log() })
