// The configuration: defaults, provider presets, and one pure parse of options and environment.
import { asRecord, isRecord } from "../base/unknown.ts"

export const PLUGIN_ID = "ragfaith"

/** The judge route through the user's own opencode providers, as RFE_JUDGE_PROVIDER names it. */
const OPENCODE_ROUTE = "opencode"

const ROUTE_MAX_CONCURRENCY = 4

export const VERDICTS = ["faithful", "unfaithful", "unverifiable"] as const

const PROVIDER_PRESETS = {
  synthetic: {
    baseURL: "https://api.synthetic.new/v1",
    keyEnv: "SYNTHETIC_API_KEY",
    mainEnv: "RFE_SYNTHETIC_MAIN_MODEL",
    fallbackEnv: "RFE_SYNTHETIC_FALLBACK_MODEL",
    mainModel: "hf:zai-org/GLM-5.3-Flash",
    fallbackModel: "hf:deepseek-ai/DeepSeek-V4.1-Flash",
  },
  openrouter: {
    baseURL: "https://openrouter.ai/api/v1",
    keyEnv: "OPENROUTER_API_KEY",
    mainEnv: "RFE_OPENROUTER_MAIN_MODEL",
    fallbackEnv: "RFE_OPENROUTER_FALLBACK_MODEL",
    mainModel: "z-ai/glm-5.3-flash",
    fallbackModel: "deepseek/deepseek-v4.1-flash",
  },
} as const

/** Tool names whose output is evidence. `web` is the spec's default; `all` adds command output and grep. */
const PREMISE_TOOLS_BY_SCOPE = {
  web: "read|fetch|web|doc|search",
  all: "read|fetch|web|doc|search|grep|bash|shell|exec|command|terminal",
} as const

/**
 * A larger batch is cut to this: every claim's verdict needs room in one answer, and one bad answer sends the
 * whole batch back to one request per claim.
 */
const JUDGE_BATCH_MAX = 20

export const DEFAULTS = {
  provider: "synthetic",
  strictness: "normal",
  evidenceScope: "web",
  premiseCap: 24_000,
  maxClaims: 50,
  nudgeDepth: 2,
  judgeConcurrency: 8,
  routeConcurrency: 3,
  judgeTimeoutMs: 30_000,
  judgeMaxAttempts: 4,
  /** Claims of one reply judged in one request; 1 keeps the spec's request, one claim each. */
  judgeBatch: 1,
  flushTimeoutMs: 20_000,
} as const

export type Verdict = (typeof VERDICTS)[number]

type Strictness = "normal" | "strict"

type EvidenceScope = keyof typeof PREMISE_TOOLS_BY_SCOPE

export interface JudgeSettings {
  provider: string
  /** `http`: an OpenAI-compatible endpoint called directly; `opencode`: the user's own opencode providers. */
  route: "http" | "opencode"
  /** Where the key came from, as a refused key names it: `RFE_JUDGE_API_KEY`, `SYNTHETIC_API_KEY`, an option. */
  keyName: string
  baseURL: string
  apiKey: string | undefined
  mainModel: string
  fallbackModel: string
  concurrency: number
  timeoutMs: number
  maxAttempts: number
  /** At most this many claims of one reply go to the judge in one request (RFE_JUDGE_BATCH). */
  batch: number
}

export interface Config {
  judge: JudgeSettings
  /** Why nothing is judged (no key, no base URL, refused insecure URL); undefined when the judge is usable. */
  judgeDisabled: string | undefined
  activeModel: string | undefined
  flagVerdicts: ReadonlySet<Verdict>
  premiseTools: RegExp
  premiseCap: number
  /**
   * Files a claim names that no tool of the session read are read by the plugin itself, within bounds, and
   * judged against (RFE_READ_NAMED, option `evidence.readNamed`); off by default.
   */
  readNamed: boolean
  maxClaims: number
  nudgeDepth: number
  cacheDir: string | undefined
  judgeLog: string | undefined
  docPull: boolean
  flushTimeoutMs: number
  checks: Checks
  /** Where each judged reply is recorded as one JSON line (RFE_REPORT); undefined records nothing. */
  report: string | undefined
  /** Verdicts that make `opencode run` exit 1 (RFE_FAIL_ON); empty leaves the exit code to opencode. */
  failOn: ReadonlySet<Verdict>
  ci: CiSettings
}

/** What GitHub Actions tells every step, read from its own variables: where `opencode run` reports at exit. */
interface CiSettings {
  /** The job summary file (GITHUB_STEP_SUMMARY): `opencode run` appends its flagged statements there. */
  summary: string | undefined
  /** Inside GitHub Actions (GITHUB_ACTIONS=true): flagged statements become annotations on stderr. */
  annotations: boolean
}

/**
 * What makes a flag earned. The user can turn off the second opinion and the question; the others are
 * always on, and exist as switches so the noisy-judge benchmark can measure each one.
 */
interface Checks {
  /** Each claim goes to the judge with the sentences before it. */
  context: boolean
  /** Each reply's claims go with the user's question (RFE_SEND_QUESTION). */
  question: boolean
  /** A contradiction counts only when its quote stands in the source it names. */
  quotes: boolean
  /** A contradiction counts only when a second judge model agrees (RFE_SECOND_OPINION). */
  secondOpinion: boolean
  /** Claims about the agent's own actions are decided from its tool calls, with no judge call. */
  records: boolean
  /**
   * In normal mode, a statement that shares no term with the sources is not sent (RFE_RELEVANCE). Strict mode,
   * which flags what no source settles, sends every statement whatever this says.
   */
  relevance: boolean
  /** A verdict that did not rest on the sentences before its statement is reused whatever sentences stand there. */
  reuse: boolean
}

export interface ConfigResult {
  config: Config
  warnings: string[]
}

export type Env = Record<string, string | undefined>

type Options = Record<string, unknown>

/** One setting read from the env (which wins) or from the plugin options of opencode.json. */
function pickSetting(env: Env, envName: string, options: Options, optionName: string) {
  const fromEnv = env[envName]?.trim()
  if (fromEnv) return { value: fromEnv as unknown, source: envName }
  const fromOptions = options[optionName]
  if (fromOptions !== undefined && fromOptions !== null && fromOptions !== "") {
    return { value: fromOptions, source: `option ${optionName}` }
  }
  return undefined
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, "").toLowerCase()
  return host === "localhost" || host === "::1" || /^127(?:\.\d{1,3}){3}$/.test(host)
}

/** Typed readers of one setting each; a value of the wrong type or range becomes the default and one warning. */
function settingReaders(env: Env, options: Options, warnings: string[]) {
  const text = (envName: string, optionName: string, from = options) => {
    const setting = pickSetting(env, envName, from, optionName)
    if (setting === undefined) return undefined
    if (typeof setting.value === "string") return setting.value.trim()
    warnings.push(`ragfaith: ${setting.source} must be a string; ignoring it`)
    return undefined
  }
  const integer = (envName: string, optionName: string, fallback: number, min: number, from = options) => {
    const setting = pickSetting(env, envName, from, optionName)
    if (setting === undefined) return fallback
    const value = typeof setting.value === "number" ? setting.value : Number(String(setting.value).trim())
    if (Number.isInteger(value) && value >= min) return value
    warnings.push(
      `ragfaith: ${setting.source}=${JSON.stringify(setting.value)} is not a whole number >= ${min}; using ${fallback}`,
    )
    return fallback
  }
  const flag = (envName: string, optionName: string, fallback: boolean, from = options) => {
    const setting = pickSetting(env, envName, from, optionName)
    if (setting === undefined) return fallback
    if (typeof setting.value === "boolean") return setting.value
    const value = String(setting.value).trim().toLowerCase()
    if (["1", "true", "yes", "on"].includes(value)) return true
    if (["0", "false", "no", "off"].includes(value)) return false
    warnings.push(`ragfaith: ${setting.source}=${JSON.stringify(setting.value)} is not a boolean; using ${fallback}`)
    return fallback
  }
  const oneOf = <T extends string>(envName: string, optionName: string, allowed: readonly T[], fallback: T) => {
    const value = text(envName, optionName)
    if (value === undefined) return fallback
    const lower = value.toLowerCase()
    if ((allowed as readonly string[]).includes(lower)) return lower as T
    const source = env[envName]?.trim() ? envName : `option ${optionName}`
    warnings.push(`ragfaith: ${source}=${JSON.stringify(value)} is not one of ${allowed.join(", ")}; using ${fallback}`)
    return fallback
  }
  return { text, integer, flag, oneOf }
}

type SettingReaders = ReturnType<typeof settingReaders>

/**
 * Which judge route applies: the one named, else a preset or endpoint when a judge key or base URL is set,
 * else opencode's own providers, which need no key of their own.
 */
function pickProvider(read: SettingReaders, judgeOptions: Options, env: Env): string {
  const named = read.text("RFE_JUDGE_PROVIDER", "provider", judgeOptions)?.toLowerCase()
  if (named) return named
  const keyEnvs = ["RFE_JUDGE_API_KEY", ...Object.values(PROVIDER_PRESETS).map((preset) => preset.keyEnv)]
  const hasKey = keyEnvs.some((name) => env[name]?.trim()) || pickSetting(env, "", judgeOptions, "apiKey") !== undefined
  const hasURL = pickSetting(env, "RFE_JUDGE_BASE_URL", judgeOptions, "baseURL") !== undefined
  return hasKey || hasURL ? DEFAULTS.provider : OPENCODE_ROUTE
}

/**
 * The judge endpoint. Precedence per field: generic RFE_JUDGE_* env, then the `judge` options, then the
 * provider-specific env vars, then the preset. The opencode route names models `provider/model` and may
 * leave them to be chosen from the user's own config when judging starts.
 */
function parseJudgeSettings(read: SettingReaders, judgeOptions: Options, env: Env) {
  const provider = pickProvider(read, judgeOptions, env)
  const route = provider === OPENCODE_ROUTE ? "opencode" : "http"
  const preset = Object.hasOwn(PROVIDER_PRESETS, provider)
    ? PROVIDER_PRESETS[provider as keyof typeof PROVIDER_PRESETS]
    : undefined
  const fromPresetEnv = (name: string | undefined) => (name ? env[name]?.trim() || undefined : undefined)
  const baseURL = (read.text("RFE_JUDGE_BASE_URL", "baseURL", judgeOptions) ?? preset?.baseURL ?? "").replace(
    /\/+$/,
    "",
  )
  const mainModel =
    read.text("RFE_JUDGE_MAIN_MODEL", "mainModel", judgeOptions) ??
    fromPresetEnv(preset?.mainEnv) ??
    preset?.mainModel ??
    ""
  const concurrency = read.integer(
    "RFE_JUDGE_CONCURRENCY",
    "concurrency",
    route === "opencode" ? DEFAULTS.routeConcurrency : DEFAULTS.judgeConcurrency,
    1,
    judgeOptions,
  )
  const judge: JudgeSettings = {
    provider,
    route,
    keyName: env.RFE_JUDGE_API_KEY?.trim()
      ? "RFE_JUDGE_API_KEY"
      : typeof judgeOptions.apiKey === "string" && judgeOptions.apiKey.trim()
        ? "the judge.apiKey option"
        : (preset?.keyEnv ?? "RFE_JUDGE_API_KEY"),
    baseURL,
    apiKey:
      route === "opencode"
        ? undefined
        : (read.text("RFE_JUDGE_API_KEY", "apiKey", judgeOptions) ?? fromPresetEnv(preset?.keyEnv)),
    mainModel,
    fallbackModel:
      read.text("RFE_JUDGE_FALLBACK_MODEL", "fallbackModel", judgeOptions) ??
      fromPresetEnv(preset?.fallbackEnv) ??
      preset?.fallbackModel ??
      mainModel,
    // opencode runs each judge call as a session of its own: more than a few at once slow the user's turn.
    concurrency: route === "opencode" ? Math.min(concurrency, ROUTE_MAX_CONCURRENCY) : concurrency,
    timeoutMs: read.integer("RFE_JUDGE_TIMEOUT_MS", "timeoutMs", DEFAULTS.judgeTimeoutMs, 100, judgeOptions),
    maxAttempts: read.integer("RFE_JUDGE_MAX_ATTEMPTS", "maxAttempts", DEFAULTS.judgeMaxAttempts, 1, judgeOptions),
    batch: Math.min(read.integer("RFE_JUDGE_BATCH", "batch", DEFAULTS.judgeBatch, 1, judgeOptions), JUDGE_BATCH_MAX),
  }
  const allowInsecure = read.flag("RFE_ALLOW_INSECURE_JUDGE", "allowInsecure", false, judgeOptions)
  return { judge, judgeDisabled: judgeProblem(judge, preset?.keyEnv, allowInsecure) }
}

/** Why this judge cannot be used, in words the user can act on; undefined when it can. */
function judgeProblem(judge: JudgeSettings, presetKeyEnv: string | undefined, allowInsecure: boolean) {
  const { provider, baseURL, mainModel, apiKey } = judge
  if (judge.route === "opencode") {
    const bad = [judge.mainModel, judge.fallbackModel].find((model) => model && !/^[^/\s]+\/\S+$/.test(model))
    return bad ? `ragfaith: the opencode judge route names models as provider/model; "${bad}" is not one` : undefined
  }
  if (!baseURL) return `ragfaith: provider "${provider}" has no preset; set RFE_JUDGE_BASE_URL to judge replies`
  if (!mainModel) return `ragfaith: provider "${provider}" has no preset; set RFE_JUDGE_MAIN_MODEL to judge replies`
  if (presetKeyEnv && !apiKey) {
    return `ragfaith: no judge key, nothing is judged: set ${presetKeyEnv} or RFE_JUDGE_API_KEY, or RFE_JUDGE_PROVIDER=opencode`
  }
  let url: URL
  try {
    url = new URL(baseURL)
  } catch {
    return "ragfaith: RFE_JUDGE_BASE_URL is not a URL; nothing is judged"
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") {
    return "ragfaith: the judge base URL must be http(s); nothing is judged"
  }
  if (url.protocol === "http:" && !isLoopbackHost(url.hostname) && !allowInsecure) {
    return `ragfaith: nothing is judged: no clear text to ${url.host}; use https, loopback or RFE_ALLOW_INSECURE_JUDGE=1`
  }
  return undefined
}

/**
 * Turns plugin options and the environment into a complete config. Pure: it never throws, and every bad
 * value falls back to its default with one warning, because a plugin that fails to load breaks nothing
 * visibly but also checks nothing.
 */
export function parseConfig(rawOptions: unknown, env: Env): ConfigResult {
  const warnings: string[] = []
  const options = asRecord(rawOptions)
  if (rawOptions !== undefined && rawOptions !== null && !isRecord(rawOptions)) {
    warnings.push("ragfaith: plugin options must be an object; ignoring them")
  }
  if (options.evidence !== undefined && !isRecord(options.evidence)) {
    warnings.push('ragfaith: option evidence must be an object such as { "readNamed": true }; ignoring it')
  }
  if (options.judge !== undefined && !isRecord(options.judge)) {
    warnings.push('ragfaith: option judge must be an object such as { "provider": "openrouter" }; ignoring it')
  }
  const read = settingReaders(env, options, warnings)
  const { judge, judgeDisabled } = parseJudgeSettings(read, asRecord(options.judge), env)
  const strictness = read.oneOf<Strictness>("RFE_STRICTNESS", "strictness", ["normal", "strict"], DEFAULTS.strictness)
  const flagged = parseFlagVerdicts(pickSetting(env, "RFE_FLAG_VERDICTS", options, "flagVerdicts"), warnings)
  const evidenceScope = read.oneOf<EvidenceScope>(
    "RFE_EVIDENCE_SCOPE",
    "evidenceScope",
    ["web", "all"],
    DEFAULTS.evidenceScope,
  )
  const config: Config = {
    judge,
    judgeDisabled,
    activeModel: read.text("RFE_ACTIVE_MODEL", "activeModel"),
    flagVerdicts:
      flagged ?? new Set<Verdict>(strictness === "strict" ? ["unfaithful", "unverifiable"] : ["unfaithful"]),
    premiseTools: parsePremiseTools(read.text("RFE_PREMISE_TOOLS", "premiseTools"), evidenceScope, warnings),
    premiseCap: read.integer("RFE_PREMISE_CAP", "premiseCap", DEFAULTS.premiseCap, 1),
    readNamed: read.flag("RFE_READ_NAMED", "readNamed", false, asRecord(options.evidence)),
    maxClaims: read.integer("RFE_MAX_CLAIMS", "maxClaims", DEFAULTS.maxClaims, 1),
    nudgeDepth: read.integer("RFE_NUDGE_DEPTH", "nudgeDepth", DEFAULTS.nudgeDepth, 0),
    cacheDir: read.text("RFE_CACHE_DIR", "cacheDir"),
    judgeLog: read.text("RFE_JUDGE_LOG", "judgeLog"),
    docPull: read.flag("RFE_DOC_PULL", "docPull", true),
    flushTimeoutMs: read.integer("RFE_FLUSH_TIMEOUT_MS", "flushTimeoutMs", DEFAULTS.flushTimeoutMs, 0),
    checks: {
      context: true,
      question: read.flag("RFE_SEND_QUESTION", "sendQuestion", true),
      quotes: true,
      secondOpinion: read.flag("RFE_SECOND_OPINION", "secondOpinion", true),
      records: true,
      relevance: read.flag("RFE_RELEVANCE", "relevance", true),
      reuse: true,
    },
    report: read.text("RFE_REPORT", "report") || undefined,
    failOn: parseFailOn(pickSetting(env, "RFE_FAIL_ON", options, "failOn"), warnings),
    ci: {
      summary: env.GITHUB_STEP_SUMMARY?.trim() || undefined,
      annotations: env.GITHUB_ACTIONS?.trim() === "true",
    },
  }
  return { config, warnings }
}

/** The verdicts a CI run may fail on; `faithful` is none of them, and `none` (or nothing) fails on none. */
const FAIL_VERDICTS: readonly Verdict[] = ["unfaithful", "unverifiable"]

function parseFailOn(setting: ReturnType<typeof pickSetting>, warnings: string[]): ReadonlySet<Verdict> {
  if (setting === undefined) return new Set()
  const items = Array.isArray(setting.value) ? setting.value.map(String) : String(setting.value).split(",")
  const names = items.map((item) => item.trim().toLowerCase()).filter((name) => name && name !== "none")
  const unknown = names.filter((name) => !(FAIL_VERDICTS as readonly string[]).includes(name))
  if (unknown.length > 0) {
    warnings.push(
      `ragfaith: ${setting.source}=${JSON.stringify(setting.value)} must list verdicts from ${FAIL_VERDICTS.join(", ")}; ` +
        "failing on none",
    )
    return new Set()
  }
  return new Set(names as Verdict[])
}

function parseFlagVerdicts(setting: ReturnType<typeof pickSetting>, warnings: string[]) {
  if (setting === undefined) return undefined
  const items = Array.isArray(setting.value) ? setting.value.map(String) : String(setting.value).split(",")
  const names = items.map((item) => item.trim().toLowerCase()).filter(Boolean)
  const unknown = names.filter((name) => !(VERDICTS as readonly string[]).includes(name))
  if (names.length === 0 || unknown.length > 0) {
    warnings.push(
      `ragfaith: ${setting.source}=${JSON.stringify(setting.value)} must list verdicts from ${VERDICTS.join(", ")}; ` +
        `using the strictness default`,
    )
    return undefined
  }
  return new Set(names as Verdict[])
}

/** An explicit tool-name regex wins over the evidence scope; one that does not compile falls back to it. */
function parsePremiseTools(pattern: string | undefined, scope: EvidenceScope, warnings: string[]): RegExp {
  const fallback = new RegExp(PREMISE_TOOLS_BY_SCOPE[scope], "i")
  if (pattern === undefined) return fallback
  try {
    return new RegExp(pattern, "i")
  } catch {
    warnings.push(`ragfaith: RFE_PREMISE_TOOLS=${JSON.stringify(pattern)} is not a valid regex; using the default`)
    return fallback
  }
}
