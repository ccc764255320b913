/**
 * The one scripted judge of the test suite: a real OpenAI-compatible `/chat/completions` endpoint on
 * 127.0.0.1, used by the behaviour tests, the live harness and the benchmarks. A rule decides every answer
 * from the parsed request, in one vocabulary of replies (a verdict, an HTTP status, raw text, a garbage
 * body, a hang), and every request is recorded.
 */

export type JudgeReply = (
  | { verdict: string; source?: string; quote?: string; reason?: string }
  | { status: number; body?: string; retryAfter?: string; headers?: Record<string, string> }
  | { raw: string }
  | { garbage: true }
  | { hang: true }
  /** Any other HTTP answer a fault needs: a body that stalls, a stream with no length. */
  | { http: () => Response }
) & {
  delayMs?: number
  /** The completion's `usage`; null sends none. */
  usage?: Record<string, unknown> | null
}

export interface JudgeSource {
  id: string
  attrs: string
  text: string
}

/** One judge request as the rule sees it and the tests inspect it. */
export interface JudgeCall {
  index: number
  model: string
  /** The claim being judged: the text of the last <claim> block. */
  claim: string
  /** The claims of a batched request (`<claim id="…">` blocks), in order; empty for a one-claim request. */
  batch: Array<{ id: string; claim: string }>
  /** The user message: sources, then the claim. */
  userContent: string
  sources: JudgeSource[]
  headers: Record<string, string>
  body: JudgeBody
  raw: string
}

/** The body the plugin sends, as far as tests read it. */
export interface JudgeBody {
  model: string
  messages: Array<{ role: string; content: string }>
  temperature: number
  reasoning?: unknown
  max_tokens: number
  [key: string]: unknown
}

export type JudgeRule = (call: JudgeCall) => JudgeReply | Promise<JudgeReply>

const CLAIM_RE = /<claim>\n([\s\S]*?)\n<\/claim>/g
const BATCH_CLAIM_RE = /<claim id="([^"]+)">\n([\s\S]*?)\n<\/claim>/g
const SOURCE_RE = /<source\s+id="([^"]+)"([^>]*)>\n?([\s\S]*?)\n?<\/source>/g

type Content = string | Array<{ type?: string; text?: string }> | null | undefined

/** The text of a chat message, whether its content is a string or a list of parts. */
export const contentText = (content: Content): string =>
  typeof content === "string"
    ? content
    : Array.isArray(content)
      ? content.map((part) => (typeof part.text === "string" ? part.text : "")).join("\n")
      : ""

/** Reads a judge request body (parsed JSON) the way every test looks at one. */
export function readJudgeCall(
  // biome-ignore lint/suspicious/noExplicitAny: request bodies are arbitrary JSON
  body: any,
  index = 0,
  raw = JSON.stringify(body ?? null),
  headers: Record<string, string> = {},
): JudgeCall {
  const messages: Array<{ role?: string; content?: Content }> = Array.isArray(body?.messages) ? body.messages : []
  const userContent = messages
    .filter((message) => message.role === "user")
    .map((message) => contentText(message.content))
    .join("\n")
  const claims = [...userContent.matchAll(CLAIM_RE)]
  const sources = [...userContent.matchAll(SOURCE_RE)].map((match) => ({
    id: match[1] ?? "",
    attrs: (match[2] ?? "").trim(),
    text: match[3] ?? "",
  }))
  const batch = [...userContent.matchAll(BATCH_CLAIM_RE)].map((match) => ({
    id: match[1] ?? "",
    claim: match[2] ?? "",
  }))
  const model = typeof body?.model === "string" ? body.model : ""
  const claim = claims.at(-1)?.[1] ?? batch.at(-1)?.claim ?? ""
  return { index, model, claim, batch, userContent, sources, headers, body: body as JudgeBody, raw }
}

/** A non-streaming chat completion with one assistant message, as OpenAI-compatible endpoints answer. */
export function chatCompletion(options: {
  content: string
  model?: string
  id?: string
  toolCalls?: Array<{ id: string; name: string; arguments: string }>
  usage?: Record<string, unknown> | null
}) {
  const toolCalls = options.toolCalls ?? []
  return {
    id: options.id ?? "chatcmpl-scripted",
    object: "chat.completion",
    created: Math.floor(Date.now() / 1000),
    model: options.model ?? "scripted",
    choices: [
      {
        index: 0,
        message: {
          role: "assistant",
          content: options.content,
          ...(toolCalls.length
            ? {
                tool_calls: toolCalls.map((call) => ({
                  id: call.id,
                  type: "function",
                  function: { name: call.name, arguments: call.arguments },
                })),
              }
            : {}),
        },
        finish_reason: toolCalls.length ? "tool_calls" : "stop",
      },
    ],
    ...(options.usage === null
      ? {}
      : { usage: options.usage ?? { prompt_tokens: 100, completion_tokens: 12, total_tokens: 112 } }),
  }
}

/** The JSON a verdict reply stands for, as a judge model would write it: only the fields the reply names. */
export const verdictJSON = ({
  verdict,
  source,
  quote,
  reason,
}: {
  verdict: string
  source?: string
  quote?: string
  reason?: string
}) =>
  JSON.stringify({
    verdict,
    ...(source === undefined ? {} : { source }),
    ...(quote === undefined ? {} : { quote }),
    ...(reason === undefined ? {} : { reason }),
  })

/** What a broken upstream answers instead of a completion. */
const GARBAGE = "<html>502 upstream garbage"

/**
 * The HTTP answer for one reply of the vocabulary; a hang never resolves. `encode` writes an answer's text
 * another way (a stream, as opencode asks its providers for one); by default it is one chat completion.
 */
export async function answerJudge(
  reply: JudgeReply,
  call: JudgeCall,
  usage?: Record<string, unknown>,
  encode?: (text: string) => Response,
) {
  if (reply.delayMs) await Bun.sleep(reply.delayMs)
  if ("hang" in reply) return new Promise<Response>(() => {})
  if ("http" in reply) return reply.http()
  if ("status" in reply) {
    const headers: Record<string, string> = { "content-type": "application/json", ...reply.headers }
    if (reply.retryAfter !== undefined) headers["retry-after"] = reply.retryAfter
    return new Response(reply.body ?? JSON.stringify({ error: { message: `scripted ${reply.status}` } }), {
      status: reply.status,
      headers,
    })
  }
  if ("garbage" in reply) return encode ? encode(GARBAGE) : new Response(GARBAGE, { status: 200 })
  const content = "raw" in reply ? reply.raw : verdictJSON(reply)
  if (encode) return encode(content)
  const answerUsage = reply.usage === undefined ? usage : reply.usage
  return Response.json(chatCompletion({ content, model: call.model, id: `judge-${call.index}`, usage: answerUsage }))
}

/**
 * A batched request answered as a judge model would: the rule decides each claim as if it came alone, and
 * the verdicts go back in one `{"verdicts": [...]}` object. A claim whose reply is no verdict (a status, a
 * hang, raw text) decides the whole answer, as a failing request would.
 */
export async function batchReply(rule: JudgeRule, call: JudgeCall): Promise<JudgeReply> {
  const replies = await Promise.all(call.batch.map((item) => rule({ ...call, claim: item.claim })))
  const other = replies.find((reply) => !("verdict" in reply))
  if (other) return other
  const verdicts = replies.map((reply, at) => ({
    id: call.batch[at]?.id,
    ...JSON.parse(verdictJSON(reply as { verdict: string })),
  }))
  return { raw: JSON.stringify({ verdicts }) }
}

/** Usage figures of the unit judge; the cached share lets the token log show prompt caching. */
const UNIT_USAGE = {
  prompt_tokens: 100,
  completion_tokens: 12,
  total_tokens: 112,
  prompt_tokens_details: { cached_tokens: 64 },
}

/** The scripted judge on 127.0.0.1 port 0: `rule` picks each answer, every request is recorded. */
export function startJudge(rule: JudgeRule) {
  const requests: JudgeCall[] = []
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const raw = await req.text()
      let body: unknown = null
      try {
        body = JSON.parse(raw)
      } catch {
        body = raw
      }
      const call = readJudgeCall(body, requests.length, raw, Object.fromEntries(req.headers.entries()))
      requests.push(call)
      return answerJudge(call.batch.length ? await batchReply(rule, call) : await rule(call), call, UNIT_USAGE)
    },
  })
  return { url: `http://127.0.0.1:${server.port}/v1`, requests, stop: () => server.stop(true) }
}

/** The key the plugin is given for the scripted judge; tests check it never leaks. */
export const JUDGE_KEY = "test-judge-key"

/** A scripted judge for the length of `work`, stopped afterwards whatever happens. */
export async function withJudge<T>(rule: JudgeRule, work: (judge: ReturnType<typeof startJudge>) => Promise<T>) {
  const judge = startJudge(rule)
  try {
    return await work(judge)
  } finally {
    judge.stop()
  }
}

/** The plugin's env for a judge on loopback: a custom provider, so no preset key is needed. */
/**
 * The relevance gate off (it is on by default): for tests whose source has nothing to do with the reply, as
 * they check what reaches the judge or the records, not which statements are worth sending.
 */
export const GATE_OFF = { RFE_RELEVANCE: "off" } as const

export function judgeEnv(url: string, extra: Record<string, string | undefined> = {}) {
  return {
    RFE_JUDGE_PROVIDER: "scripted",
    RFE_JUDGE_BASE_URL: url,
    RFE_JUDGE_API_KEY: JUDGE_KEY,
    RFE_JUDGE_MAIN_MODEL: "judge-main",
    RFE_JUDGE_FALLBACK_MODEL: "judge-fallback",
    ...extra,
  }
}
