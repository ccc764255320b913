import { afterAll, describe, expect, test } from "bun:test"
import { type Config, parseConfig } from "../../src/config/config.ts"
import plugin from "../../src/plugin.ts"
import { HOOK_KEYS, toastLines } from "../support/fixtures.ts"
import { createHost } from "../support/host.ts"
import { startJudge } from "../support/judge.ts"

type Env = Record<string, string | undefined>

/** Fake keys are built at run time, so nothing in the repository looks like a real credential. */
const fakeKey = (tag: string) => `${tag}-${"k".repeat(8)}${"0".repeat(4)}`

/** A config field by dotted path, in a comparable form: regexes by source, sets as sorted arrays. */
function field(config: Config, path: string): unknown {
  let value: unknown = config
  for (const key of path.split(".")) value = (value as Record<string, unknown>)[key]
  if (value instanceof RegExp) return value.source
  if (value instanceof Set) return [...value].sort()
  return value
}

/** Plugin options with one value at a dotted path (`judge.apiKey`). */
function optionsAt(path: string, value: unknown): Record<string, unknown> {
  const [head = "", ...rest] = path.split(".")
  return rest.length ? { [head]: optionsAt(rest.join("."), value) } : { [head]: value }
}

describe("defaults", () => {
  const { config, warnings } = parseConfig(undefined, {})

  test("an empty environment parses without a warning", () => {
    expect(warnings).toEqual([])
  })

  test.each([
    ["RFE_JUDGE_PROVIDER", "judge.provider", "opencode"],
    ["RFE_JUDGE_PROVIDER", "judge.route", "opencode"],
    ["RFE_JUDGE_BASE_URL", "judge.baseURL", ""],
    ["RFE_JUDGE_API_KEY", "judge.apiKey", undefined],
    ["RFE_JUDGE_MAIN_MODEL", "judge.mainModel", ""],
    ["RFE_JUDGE_FALLBACK_MODEL", "judge.fallbackModel", ""],
    ["RFE_ACTIVE_MODEL", "activeModel", undefined],
    ["RFE_STRICTNESS", "flagVerdicts", ["unfaithful"]],
    ["RFE_FLAG_VERDICTS", "flagVerdicts", ["unfaithful"]],
    ["RFE_EVIDENCE_SCOPE", "premiseTools", "read|fetch|web|doc|search"],
    ["RFE_PREMISE_TOOLS", "premiseTools", "read|fetch|web|doc|search"],
    ["RFE_PREMISE_CAP", "premiseCap", 24_000],
    ["RFE_MAX_CLAIMS", "maxClaims", 50],
    ["RFE_NUDGE_DEPTH", "nudgeDepth", 2],
    ["RFE_CACHE_DIR", "cacheDir", undefined],
    ["RFE_JUDGE_LOG", "judgeLog", undefined],
    ["RFE_JUDGE_CONCURRENCY", "judge.concurrency", 3],
    ["RFE_JUDGE_TIMEOUT_MS", "judge.timeoutMs", 30_000],
    ["RFE_JUDGE_MAX_ATTEMPTS", "judge.maxAttempts", 4],
    ["RFE_DOC_PULL", "docPull", true],
    ["RFE_FLUSH_TIMEOUT_MS", "flushTimeoutMs", 20_000],
  ])("%s: config.%s defaults to %p", (_env, path, expected) => {
    expect(field(config, path)).toEqual(expected)
  })

  test("the premise-tools regex is case-insensitive", () => {
    expect(config.premiseTools.flags).toContain("i")
    expect(config.premiseTools.test("WebFetch")).toBe(true)
    expect(config.premiseTools.test("bash")).toBe(false)
  })

  test("with no judge key at all, the opencode route judges: nothing is disabled", () => {
    expect(config.judgeDisabled).toBeUndefined()
  })

  test.each([
    ["SYNTHETIC_API_KEY", { SYNTHETIC_API_KEY: "k" }],
    ["RFE_JUDGE_API_KEY", { RFE_JUDGE_API_KEY: "k" }],
    ["OPENROUTER_API_KEY", { OPENROUTER_API_KEY: "k" }],
  ])("with %s set, the synthetic preset is the default route, as before", (_name, env) => {
    const { judge } = parseConfig(undefined, env).config
    expect([
      judge.provider,
      judge.route,
      judge.baseURL,
      judge.mainModel,
      judge.fallbackModel,
      judge.concurrency,
    ]).toEqual([
      "synthetic",
      "http",
      "https://api.synthetic.new/v1",
      "hf:zai-org/GLM-5.3-Flash",
      "hf:deepseek-ai/DeepSeek-V4.1-Flash",
      8,
    ])
  })

  test("the synthetic preset named without its key is disabled, naming both key variables and the opencode route", () => {
    const { judgeDisabled } = parseConfig(undefined, { RFE_JUDGE_PROVIDER: "synthetic" }).config
    expect(judgeDisabled).toMatch(/^ragfaith: .*SYNTHETIC_API_KEY.*RFE_JUDGE_API_KEY.*RFE_JUDGE_PROVIDER=opencode/)
  })

  test.each([
    [
      "models named provider/model are kept",
      { RFE_JUDGE_MAIN_MODEL: "mock/judge", RFE_JUDGE_FALLBACK_MODEL: "mock/other" },
      undefined,
    ],
    ["a model without its provider is refused", { RFE_JUDGE_MAIN_MODEL: "judge" }, /provider\/model; "judge"/],
  ])("the opencode route: %s", (_name, env, problem) => {
    const { judgeDisabled, judge } = parseConfig(undefined, { RFE_JUDGE_PROVIDER: "opencode", ...env }).config
    expect(judge.route).toBe("opencode")
    if (problem) expect(judgeDisabled).toMatch(problem)
    else expect([judgeDisabled, judge.mainModel, judge.fallbackModel]).toEqual([undefined, "mock/judge", "mock/other"])
  })

  test("the opencode route never runs more than 4 judge sessions at once", () => {
    const { judge } = parseConfig(undefined, { RFE_JUDGE_PROVIDER: "opencode", RFE_JUDGE_CONCURRENCY: "16" }).config
    expect(judge.concurrency).toBe(4)
  })
})

describe("each setting from the env and from the plugin options", () => {
  // [env var, option path, env value, option value, another option value, config field, expected]
  const rows: Array<[string, string, string, unknown, unknown, string, unknown]> = [
    ["RFE_JUDGE_PROVIDER", "judge.provider", "OpenRouter", "OpenRouter", "synthetic", "judge.provider", "openrouter"],
    [
      "RFE_JUDGE_BASE_URL",
      "judge.baseURL",
      "https://judge.example.test/v1/",
      "https://judge.example.test/v1/",
      "https://other.example.test/v1",
      "judge.baseURL",
      "https://judge.example.test/v1",
    ],
    [
      "RFE_JUDGE_MAIN_MODEL",
      "judge.mainModel",
      "acme/judge-1",
      "acme/judge-1",
      "other/m",
      "judge.mainModel",
      "acme/judge-1",
    ],
    [
      "RFE_JUDGE_FALLBACK_MODEL",
      "judge.fallbackModel",
      "acme/judge-2",
      "acme/judge-2",
      "other/m",
      "judge.fallbackModel",
      "acme/judge-2",
    ],
    ["RFE_ACTIVE_MODEL", "activeModel", "mock/scripted", "mock/scripted", "other/m", "activeModel", "mock/scripted"],
    ["RFE_STRICTNESS", "strictness", "STRICT", "strict", "normal", "flagVerdicts", ["unfaithful", "unverifiable"]],
    [
      "RFE_FLAG_VERDICTS",
      "flagVerdicts",
      "unverifiable, Unfaithful",
      ["unverifiable", "unfaithful"],
      "faithful",
      "flagVerdicts",
      ["unfaithful", "unverifiable"],
    ],
    [
      "RFE_EVIDENCE_SCOPE",
      "evidenceScope",
      "all",
      "all",
      "web",
      "premiseTools",
      "read|fetch|web|doc|search|grep|bash|shell|exec|command|terminal",
    ],
    ["RFE_PREMISE_TOOLS", "premiseTools", "^(read|mcp_.*)$", "^(read|mcp_.*)$", "x", "premiseTools", "^(read|mcp_.*)$"],
    ["RFE_PREMISE_CAP", "premiseCap", "1000", 1000, 5000, "premiseCap", 1000],
    ["RFE_MAX_CLAIMS", "maxClaims", "7", 7, 9, "maxClaims", 7],
    ["RFE_NUDGE_DEPTH", "nudgeDepth", "0", 0, 3, "nudgeDepth", 0],
    ["RFE_CACHE_DIR", "cacheDir", "/tmp/rf-cache", "/tmp/rf-cache", "/tmp/other", "cacheDir", "/tmp/rf-cache"],
    ["RFE_JUDGE_LOG", "judgeLog", "stderr", "stderr", "/tmp/log.jsonl", "judgeLog", "stderr"],
    ["RFE_JUDGE_CONCURRENCY", "judge.concurrency", "3", 3, 5, "judge.concurrency", 3],
    ["RFE_JUDGE_TIMEOUT_MS", "judge.timeoutMs", "1500", 1500, 9000, "judge.timeoutMs", 1500],
    ["RFE_JUDGE_MAX_ATTEMPTS", "judge.maxAttempts", "2", 2, 6, "judge.maxAttempts", 2],
    ["RFE_DOC_PULL", "docPull", "off", false, true, "docPull", false],
    ["RFE_FLUSH_TIMEOUT_MS", "flushTimeoutMs", "250", 250, 999, "flushTimeoutMs", 250],
  ]

  test.each(rows)("%s from the env", (env, _path, envValue, _option, _other, at, expected) => {
    const { config, warnings } = parseConfig(undefined, { [env]: envValue })
    expect(field(config, at)).toEqual(expected)
    expect(warnings).toEqual([])
  })

  test.each(rows)("%s as the option %s", (_env, path, _envValue, option, _other, at, expected) => {
    const { config, warnings } = parseConfig(optionsAt(path, option), {})
    expect(field(config, at)).toEqual(expected)
    expect(warnings).toEqual([])
  })

  test.each(rows)("%s beats the option %s", (env, path, envValue, _option, other, at, expected) => {
    const { config } = parseConfig(optionsAt(path, other), { [env]: envValue })
    expect(field(config, at)).toEqual(expected)
  })

  test("RFE_JUDGE_API_KEY from the env, as judge.apiKey, and the env winning", () => {
    const key = fakeKey("env")
    const option = fakeKey("option")
    expect(parseConfig(undefined, { RFE_JUDGE_API_KEY: key }).config.judge.apiKey).toBe(key)
    expect(parseConfig({ judge: { apiKey: option } }, {}).config.judge.apiKey).toBe(option)
    expect(parseConfig({ judge: { apiKey: option } }, { RFE_JUDGE_API_KEY: key }).config.judge.apiKey).toBe(key)
    expect(parseConfig({ judge: { apiKey: option } }, {}).config.judgeDisabled).toBeUndefined()
  })

  const insecure = { RFE_JUDGE_BASE_URL: "http://judge.example.test/v1", RFE_JUDGE_API_KEY: "k" }
  test.each([
    ["neither", {}, undefined, true],
    ["RFE_ALLOW_INSECURE_JUDGE=1", { RFE_ALLOW_INSECURE_JUDGE: "1" }, undefined, false],
    ["RFE_ALLOW_INSECURE_JUDGE=yes", { RFE_ALLOW_INSECURE_JUDGE: "yes" }, undefined, false],
    ["judge.allowInsecure true", {}, { judge: { allowInsecure: true } }, false],
    ["judge.allowInsecure 'true'", {}, { judge: { allowInsecure: "true" } }, false],
    ["env 0 beats option true", { RFE_ALLOW_INSECURE_JUDGE: "0" }, { judge: { allowInsecure: true } }, true],
  ])("RFE_ALLOW_INSECURE_JUDGE / judge.allowInsecure: %s", (_name, env, options, disabled) => {
    const { config, warnings } = parseConfig(options, { ...insecure, ...env })
    expect(config.judgeDisabled !== undefined).toBe(disabled)
    expect(warnings).toEqual([])
  })

  test("RFE_EVIDENCE_SCOPE=all also widens the premise tools to command output", () => {
    const { config } = parseConfig(undefined, { RFE_EVIDENCE_SCOPE: "all" })
    expect(config.premiseTools.test("bash")).toBe(true)
    expect(config.premiseTools.test("read")).toBe(true)
  })

  test("an explicit RFE_PREMISE_TOOLS wins over RFE_EVIDENCE_SCOPE", () => {
    const { config } = parseConfig(undefined, { RFE_EVIDENCE_SCOPE: "all", RFE_PREMISE_TOOLS: "^read$" })
    expect(config.premiseTools.test("bash")).toBe(false)
    expect(config.premiseTools.test("READ")).toBe(true)
  })

  test("RFE_STRICTNESS=strict flags unverifiable too; an explicit RFE_FLAG_VERDICTS wins", () => {
    expect(field(parseConfig(undefined, { RFE_STRICTNESS: "strict" }).config, "flagVerdicts")).toEqual([
      "unfaithful",
      "unverifiable",
    ])
    const explicit = parseConfig(undefined, { RFE_STRICTNESS: "strict", RFE_FLAG_VERDICTS: "unfaithful" })
    expect(field(explicit.config, "flagVerdicts")).toEqual(["unfaithful"])
  })

  test("a blank env var counts as unset, so the option applies", () => {
    const { config } = parseConfig(
      { premiseCap: 900, strictness: "strict" },
      { RFE_PREMISE_CAP: "  ", RFE_STRICTNESS: "" },
    )
    expect(config.premiseCap).toBe(900)
    expect(field(config, "flagVerdicts")).toEqual(["unfaithful", "unverifiable"])
  })
})

describe("provider presets and precedence", () => {
  test.each([
    ["the env key", { RFE_JUDGE_API_KEY: "k", SYNTHETIC_API_KEY: "s" }, { apiKey: "o" }, "RFE_JUDGE_API_KEY"],
    ["the option", { SYNTHETIC_API_KEY: "s" }, { apiKey: "o" }, "the judge.apiKey option"],
    // an empty option is no key: the preset's variable holds the one used, so a refusal names it
    ["not an empty option", { SYNTHETIC_API_KEY: "s" }, { apiKey: "" }, "SYNTHETIC_API_KEY"],
    ["not a null option", { SYNTHETIC_API_KEY: "s" }, { apiKey: null }, "SYNTHETIC_API_KEY"],
  ])("a refused key names where the key in use came from: %s", (_name, env, judge, keyName) => {
    expect(parseConfig({ judge }, env as Record<string, string>).config.judge.keyName).toBe(keyName)
  })

  test.each([
    [
      "synthetic",
      "SYNTHETIC_API_KEY",
      "https://api.synthetic.new/v1",
      "hf:zai-org/GLM-5.3-Flash",
      "hf:deepseek-ai/DeepSeek-V4.1-Flash",
    ],
    [
      "openrouter",
      "OPENROUTER_API_KEY",
      "https://openrouter.ai/api/v1",
      "z-ai/glm-5.3-flash",
      "deepseek/deepseek-v4.1-flash",
    ],
  ])("the %s preset: base URL, models and key variable", (provider, keyEnv, baseURL, main, fallback) => {
    const key = fakeKey(provider)
    const { config, warnings } = parseConfig(undefined, { RFE_JUDGE_PROVIDER: provider, [keyEnv]: key })
    expect(config.judge).toMatchObject({ provider, baseURL, apiKey: key, mainModel: main, fallbackModel: fallback })
    expect(config.judgeDisabled).toBeUndefined()
    expect(warnings).toEqual([])
  })

  test.each([
    ["synthetic", "SYNTHETIC_API_KEY", "OPENROUTER_API_KEY"],
    ["openrouter", "OPENROUTER_API_KEY", "SYNTHETIC_API_KEY"],
  ])("the %s preset without its key is disabled and ignores the other preset's key", (provider, own, other) => {
    const { config } = parseConfig(undefined, { RFE_JUDGE_PROVIDER: provider, [other]: fakeKey("other") })
    expect(config.judge.apiKey).toBeUndefined()
    expect(config.judgeDisabled).toContain(own)
  })

  test.each(["OpenRouter", "OPENROUTER", " openrouter "])("provider names are case-insensitive: %p", (name) => {
    const { config } = parseConfig(undefined, { RFE_JUDGE_PROVIDER: name, OPENROUTER_API_KEY: "k" })
    expect(config.judge.provider).toBe("openrouter")
    expect(config.judge.baseURL).toBe("https://openrouter.ai/api/v1")
  })

  // [provider, env var, config field, value]: the provider-specific variables apply only to their preset.
  test.each([
    ["synthetic", "SYNTHETIC_API_KEY", "judge.apiKey"],
    ["synthetic", "RFE_SYNTHETIC_MAIN_MODEL", "judge.mainModel"],
    ["synthetic", "RFE_SYNTHETIC_FALLBACK_MODEL", "judge.fallbackModel"],
    ["openrouter", "OPENROUTER_API_KEY", "judge.apiKey"],
    ["openrouter", "RFE_OPENROUTER_MAIN_MODEL", "judge.mainModel"],
    ["openrouter", "RFE_OPENROUTER_FALLBACK_MODEL", "judge.fallbackModel"],
  ])("%s reads %s into %s; the other preset does not", (provider, env, at) => {
    const value = fakeKey(env.toLowerCase())
    expect(field(parseConfig(undefined, { RFE_JUDGE_PROVIDER: provider, [env]: value }).config, at)).toBe(value)
    const other = provider === "synthetic" ? "openrouter" : "synthetic"
    expect(field(parseConfig(undefined, { RFE_JUDGE_PROVIDER: other, [env]: value }).config, at)).not.toBe(value)
  })

  // Precedence per field: generic RFE_JUDGE_* env → judge options → provider-specific env → preset.
  const levels = (generic: string, option: string, specific: string) =>
    [
      [
        "generic env wins over all",
        { [generic]: "from-generic", [specific]: "from-specific" },
        { judge: { [option]: "from-option" } },
        "from-generic",
      ],
      [
        "judge option wins over the provider env",
        { [specific]: "from-specific" },
        { judge: { [option]: "from-option" } },
        "from-option",
      ],
      ["provider env wins over the preset", { [specific]: "from-specific" }, undefined, "from-specific"],
    ] as Array<[string, Env, unknown, string]>

  test.each(levels("RFE_JUDGE_MAIN_MODEL", "mainModel", "RFE_SYNTHETIC_MAIN_MODEL"))(
    "main model: %s",
    (_name, env, options, expected) => {
      expect(parseConfig(options, { RFE_JUDGE_PROVIDER: "synthetic", ...env }).config.judge.mainModel).toBe(expected)
    },
  )

  test.each(levels("RFE_JUDGE_FALLBACK_MODEL", "fallbackModel", "RFE_SYNTHETIC_FALLBACK_MODEL"))(
    "fallback model: %s",
    (_name, env, options, expected) => {
      expect(parseConfig(options, { RFE_JUDGE_PROVIDER: "synthetic", ...env }).config.judge.fallbackModel).toBe(
        expected,
      )
    },
  )

  test.each(levels("RFE_JUDGE_API_KEY", "apiKey", "SYNTHETIC_API_KEY"))(
    "API key: %s",
    (_name, env, options, expected) => {
      expect(parseConfig(options, { RFE_JUDGE_PROVIDER: "synthetic", ...env }).config.judge.apiKey).toBe(expected)
    },
  )

  test.each(levels("RFE_JUDGE_MAIN_MODEL", "mainModel", "RFE_OPENROUTER_MAIN_MODEL"))(
    "openrouter main model: %s",
    (_name, env, options, expected) => {
      expect(parseConfig(options, { RFE_JUDGE_PROVIDER: "openrouter", ...env }).config.judge.mainModel).toBe(expected)
    },
  )

  test("the generic base URL overrides the preset's", () => {
    const { config } = parseConfig(undefined, {
      RFE_JUDGE_BASE_URL: "https://proxy.example.test/v1",
      SYNTHETIC_API_KEY: "k",
    })
    expect(config.judge.baseURL).toBe("https://proxy.example.test/v1")
    expect(config.judge.mainModel).toBe("hf:zai-org/GLM-5.3-Flash")
  })

  test("a free-form provider with base URL, key and models is usable", () => {
    const key = fakeKey("custom")
    const { config, warnings } = parseConfig(undefined, {
      RFE_JUDGE_PROVIDER: "my-endpoint",
      RFE_JUDGE_BASE_URL: "https://llm.internal.example.test/v1",
      RFE_JUDGE_API_KEY: key,
      RFE_JUDGE_MAIN_MODEL: "openai/gpt-oss-120b",
      RFE_JUDGE_FALLBACK_MODEL: "mistral/magistral-small",
    })
    expect(config.judge).toMatchObject({
      provider: "my-endpoint",
      baseURL: "https://llm.internal.example.test/v1",
      apiKey: key,
      mainModel: "openai/gpt-oss-120b",
      fallbackModel: "mistral/magistral-small",
    })
    expect(config.judgeDisabled).toBeUndefined()
    expect(warnings).toEqual([])
  })

  test("a free-form provider falls back to its main model, and never to a preset's", () => {
    const { config } = parseConfig(undefined, {
      RFE_JUDGE_PROVIDER: "my-endpoint",
      RFE_JUDGE_BASE_URL: "https://llm.internal.example.test/v1",
      RFE_JUDGE_MAIN_MODEL: "only/model",
      SYNTHETIC_API_KEY: "k",
      RFE_SYNTHETIC_FALLBACK_MODEL: "preset/fallback",
    })
    expect(config.judge.fallbackModel).toBe("only/model")
    expect(config.judge.apiKey).toBeUndefined()
  })

  test.each([
    ["no base URL", { RFE_JUDGE_PROVIDER: "my-endpoint", RFE_JUDGE_MAIN_MODEL: "m" }, /RFE_JUDGE_BASE_URL/],
    [
      "no main model",
      { RFE_JUDGE_PROVIDER: "my-endpoint", RFE_JUDGE_BASE_URL: "https://llm.example.test/v1" },
      /RFE_JUDGE_MAIN_MODEL/,
    ],
  ])("a free-form provider with %s is disabled with a hint", (_name, env, hint) => {
    const { config, warnings } = parseConfig(undefined, env)
    expect(config.judgeDisabled).toMatch(hint)
    expect(config.judgeDisabled).toStartWith("ragfaith:")
    expect(warnings).toEqual([])
  })

  test("a custom base URL without a key is not disabled: local judges need no key", () => {
    const { config } = parseConfig(undefined, {
      RFE_JUDGE_PROVIDER: "local",
      RFE_JUDGE_BASE_URL: "http://127.0.0.1:11434/v1",
      RFE_JUDGE_MAIN_MODEL: "m",
    })
    expect(config.judge.apiKey).toBeUndefined()
    expect(config.judgeDisabled).toBeUndefined()
  })
})

describe("judge URL safety", () => {
  const withURL = (url: string, extra: Env = {}) =>
    parseConfig(undefined, { RFE_JUDGE_BASE_URL: url, RFE_JUDGE_API_KEY: "k", ...extra }).config.judgeDisabled

  test.each([
    "http://127.0.0.1:8080/v1",
    "http://127.9.8.7/v1",
    "http://localhost:11434/v1",
    "http://LOCALHOST:1/v1",
    "http://[::1]:8080/v1",
    "https://judge.example.test/v1",
  ])("%s is allowed", (url) => {
    expect(withURL(url)).toBeUndefined()
  })

  test.each([
    "http://judge.example.test/v1",
    "http://10.0.0.5:8080/v1",
    "http://0.0.0.0:8080/v1",
    "http://127.0.0.1.example.test/v1",
    "http://localhost.example.test/v1",
    "http://[::2]:8080/v1",
  ])("plain http to %s is refused unless RFE_ALLOW_INSECURE_JUDGE=1", (url) => {
    expect(withURL(url)).toMatch(/^ragfaith: nothing is judged: no clear text to .*RFE_ALLOW_INSECURE_JUDGE=1/)
    expect(withURL(url, { RFE_ALLOW_INSECURE_JUDGE: "1" })).toBeUndefined()
  })

  test.each(["not a url", "ftp://judge.example.test/v1", "file:///etc/judge"])("%p is no judge URL", (url) => {
    expect(withURL(url)).toMatch(/^ragfaith: .*(not a URL|http\(s\))/)
    expect(withURL(url, { RFE_ALLOW_INSECURE_JUDGE: "1" })).toBeDefined()
  })
})

describe("bad values: the default and exactly one warning", () => {
  // [description, options, env, config field, expected default, a word the warning names]
  test.each([
    ["non-numeric RFE_PREMISE_CAP", undefined, { RFE_PREMISE_CAP: "lots" }, "premiseCap", 24_000, "RFE_PREMISE_CAP"],
    ["negative RFE_PREMISE_CAP", undefined, { RFE_PREMISE_CAP: "-5" }, "premiseCap", 24_000, "RFE_PREMISE_CAP"],
    ["zero RFE_PREMISE_CAP", undefined, { RFE_PREMISE_CAP: "0" }, "premiseCap", 24_000, "RFE_PREMISE_CAP"],
    ["fractional RFE_MAX_CLAIMS", undefined, { RFE_MAX_CLAIMS: "1.5" }, "maxClaims", 50, "RFE_MAX_CLAIMS"],
    ["negative RFE_NUDGE_DEPTH", undefined, { RFE_NUDGE_DEPTH: "-1" }, "nudgeDepth", 2, "RFE_NUDGE_DEPTH"],
    ["zero concurrency", undefined, { RFE_JUDGE_CONCURRENCY: "0" }, "judge.concurrency", 3, "RFE_JUDGE_CONCURRENCY"],
    ["a 50 ms timeout", undefined, { RFE_JUDGE_TIMEOUT_MS: "50" }, "judge.timeoutMs", 30_000, "RFE_JUDGE_TIMEOUT_MS"],
    ["words for attempts", undefined, { RFE_JUDGE_MAX_ATTEMPTS: "two" }, "judge.maxAttempts", 4, "ATTEMPTS"],
    ["negative flush timeout", undefined, { RFE_FLUSH_TIMEOUT_MS: "-1" }, "flushTimeoutMs", 20_000, "FLUSH"],
    ["unknown strictness", undefined, { RFE_STRICTNESS: "paranoid" }, "flagVerdicts", ["unfaithful"], "RFE_STRICTNESS"],
    [
      "unknown scope",
      undefined,
      { RFE_EVIDENCE_SCOPE: "everything" },
      "premiseTools",
      "read|fetch|web|doc|search",
      "RFE_EVIDENCE_SCOPE",
    ],
    [
      "invalid regex",
      undefined,
      { RFE_PREMISE_TOOLS: "read(" },
      "premiseTools",
      "read|fetch|web|doc|search",
      "RFE_PREMISE_TOOLS",
    ],
    [
      "invalid regex under scope all",
      undefined,
      { RFE_PREMISE_TOOLS: "[bash", RFE_EVIDENCE_SCOPE: "all" },
      "premiseTools",
      "read|fetch|web|doc|search|grep|bash|shell|exec|command|terminal",
      "RFE_PREMISE_TOOLS",
    ],
    ["unknown verdict", undefined, { RFE_FLAG_VERDICTS: "unfaithful,wrong" }, "flagVerdicts", ["unfaithful"], "wrong"],
    ["an empty verdict list", undefined, { RFE_FLAG_VERDICTS: " , " }, "flagVerdicts", ["unfaithful"], "FLAG_VERDICTS"],
    [
      "bad verdicts under strict",
      undefined,
      { RFE_FLAG_VERDICTS: "bogus", RFE_STRICTNESS: "strict" },
      "flagVerdicts",
      ["unfaithful", "unverifiable"],
      "bogus",
    ],
    ["non-boolean RFE_DOC_PULL", undefined, { RFE_DOC_PULL: "maybe" }, "docPull", true, "RFE_DOC_PULL"],
    ["string premiseCap option", { premiseCap: "12k" }, {}, "premiseCap", 24_000, "premiseCap"],
    ["negative maxClaims option", { maxClaims: -3 }, {}, "maxClaims", 50, "maxClaims"],
    ["numeric strictness option", { strictness: 5 }, {}, "flagVerdicts", ["unfaithful"], "strictness"],
    ["numeric cacheDir option", { cacheDir: 42 }, {}, "cacheDir", undefined, "cacheDir"],
    ["object judgeLog option", { judgeLog: { path: "x" } }, {}, "judgeLog", undefined, "judgeLog"],
    [
      "unknown verdict in an option list",
      { flagVerdicts: ["unfaithful", "nope"] },
      {},
      "flagVerdicts",
      ["unfaithful"],
      "nope",
    ],
    ["string docPull option", { docPull: "nah" }, {}, "docPull", true, "docPull"],
    [
      "array premiseTools option",
      { premiseTools: ["read"] },
      {},
      "premiseTools",
      "read|fetch|web|doc|search",
      "premiseTools",
    ],
    ["string judge.timeoutMs", { judge: { timeoutMs: "soon" } }, {}, "judge.timeoutMs", 30_000, "timeoutMs"],
    ["zero judge.concurrency", { judge: { concurrency: 0 } }, {}, "judge.concurrency", 3, "concurrency"],
    [
      "numeric judge.baseURL",
      { judge: { baseURL: 12 } },
      {},
      "judge.baseURL",
      "https://api.synthetic.new/v1",
      "baseURL",
    ],
    [
      "non-boolean judge.allowInsecure",
      { judge: { allowInsecure: "sure" } },
      { RFE_JUDGE_BASE_URL: "http://judge.example.test/v1", RFE_JUDGE_API_KEY: "k" },
      "judgeDisabled",
      expect.stringContaining("no clear text"),
      "allowInsecure",
    ],
  ] as Array<[string, unknown, Env, string, unknown, string]>)("%s", (_name, options, env, at, expected, named) => {
    const { config, warnings } = parseConfig(options, env)
    expect(field(config, at)).toEqual(expected)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toStartWith("ragfaith: ")
    expect(warnings[0]).toContain(named)
  })

  test("several bad values give one warning each", () => {
    const { warnings } = parseConfig(
      { maxClaims: "many" },
      { RFE_PREMISE_CAP: "x", RFE_STRICTNESS: "odd", RFE_PREMISE_TOOLS: "(" },
    )
    expect(warnings).toHaveLength(4)
  })

  test.each([
    ["1", true],
    ["TRUE", true],
    ["yes", true],
    ["on", true],
    ["0", false],
    ["False", false],
    ["no", false],
    ["off", false],
  ])("boolean spelling %p reads as %p", (value, expected) => {
    const { config, warnings } = parseConfig(undefined, { RFE_DOC_PULL: value })
    expect(config.docPull).toBe(expected)
    expect(warnings).toEqual([])
  })

  test.each([
    ["null", null, 0],
    ["undefined", undefined, 0],
    ["a string", "RFE_STRICTNESS=strict", 1],
    ["a number", 42, 1],
    ["an array", ["strict", { judge: {} }], 1],
    ["a boolean", true, 1],
    ["a function", () => ({ strictness: "strict" }), 1],
  ])("options that are %s are ignored without throwing", (_name, options, warningCount) => {
    const { config, warnings } = parseConfig(options, {})
    expect(config).toEqual(parseConfig({}, {}).config)
    expect(warnings).toHaveLength(warningCount)
  })

  test("a judge option that is not an object is ignored with one warning", () => {
    const { config, warnings } = parseConfig({ judge: "openrouter" }, {})
    expect(config.judge.provider).toBe("opencode")
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(/^ragfaith: option judge must be an object/)
  })

  const garbage: unknown[] = [null, true, 0, -1, 1.5, NaN, "", " ", "x", [], [null], {}, { a: { b: [] } }]
  const optionNames = [
    "strictness",
    "flagVerdicts",
    "evidenceScope",
    "premiseTools",
    "activeModel",
    "premiseCap",
    "maxClaims",
    "nudgeDepth",
    "cacheDir",
    "judgeLog",
    "docPull",
    "flushTimeoutMs",
    "judge",
    "judge.provider",
    "judge.baseURL",
    "judge.apiKey",
    "judge.mainModel",
    "judge.fallbackModel",
    "judge.allowInsecure",
    "judge.concurrency",
    "judge.timeoutMs",
    "judge.maxAttempts",
  ]

  test.each(optionNames)("garbage in %s never throws, and at most one warning per value", (name) => {
    for (const value of garbage) {
      const result = parseConfig(optionsAt(name, value), {})
      expect(result.warnings.length).toBeLessThanOrEqual(1)
      for (const warning of result.warnings) expect(warning).toStartWith("ragfaith: ")
      expect(result.config.premiseCap).toBeGreaterThan(0)
    }
  })

  test("garbage everywhere at once still yields a complete config", () => {
    const options = Object.fromEntries(optionNames.filter((n) => !n.includes(".")).map((n) => [n, { nested: [1] }]))
    const { config, warnings } = parseConfig({ ...options, judge: { concurrency: [], baseURL: {}, apiKey: 7 } }, {})
    expect(config.judge.baseURL).toBe("https://api.synthetic.new/v1")
    expect(config.premiseCap).toBe(24_000)
    expect(field(config, "flagVerdicts")).toEqual(["unfaithful"])
    expect(warnings.length).toBeGreaterThan(5)
  })
})

describe("startup warnings through the host", () => {
  test("each warning is one app.log warn line at start, and the first session event shows ONE toast", async () => {
    const host = createHost({
      env: { RFE_JUDGE_PROVIDER: "synthetic", RFE_PREMISE_CAP: "lots", RFE_STRICTNESS: "paranoid" },
    })
    // Two bad values plus the disabled judge (no key for the named preset), the one that stops judging first.
    const warns = host.logs.filter((line) => line.level === "warn")
    expect(warns.map((line) => line.message)).toEqual([
      expect.stringContaining("SYNTHETIC_API_KEY"),
      expect.stringContaining("RFE_STRICTNESS"),
      expect.stringContaining("RFE_PREMISE_CAP"),
    ])
    expect(host.toasts).toEqual([])

    const session = await host.createSession()
    // One toast (opencode shows one at a time): the most severe notice, and where the others are.
    expect(host.toasts).toHaveLength(1)
    expect(host.toasts[0]?.message).toMatch(/^No judge key, nothing is judged: .*\(\+2 more in the opencode log\)$/)
    expect(toastLines(host.toasts[0]?.message ?? "")).toBeLessThanOrEqual(2)
    expect(host.toasts[0]?.variant).toBe("warning")

    await host.userMessage(session, "hello")
    await host.createSession()
    expect(host.toasts).toHaveLength(1)
  })

  test("a message.updated event also shows the startup toast when session.created was missed", async () => {
    const host = createHost({ env: { RFE_JUDGE_API_KEY: "k", RFE_NUDGE_DEPTH: "deep" } })
    await host.event("message.updated", { sessionID: "ses_x", info: { id: "msg_x", role: "user", sessionID: "ses_x" } })
    expect(host.toasts).toHaveLength(1)
    expect(host.toasts[0]?.message).toMatch(/^RFE_NUDGE_DEPTH[^+]*$/)
  })

  test("a clean config logs no warning and shows no toast", async () => {
    const host = createHost({ env: { RFE_JUDGE_API_KEY: "k" } })
    await host.createSession()
    expect(host.logs.filter((line) => line.level === "warn")).toEqual([])
    expect(host.toasts).toEqual([])
  })
})

describe("the judge endpoint in behaviour", () => {
  const FILE = { path: "/project/notes.txt", text: "The service listens on port 8080 and retries three times." }
  const REPLY = "The service listens on port 9090 by default. It retries five times before giving up."
  const judge = startJudge(() => ({ verdict: "faithful", source: "S1", reason: "stated" }))
  afterAll(() => judge.stop())

  const turn = async (env: Env, deps = {}) => {
    const host = createHost({ env, deps })
    const session = await host.createSession()
    await host.readTurn(session, "Which port?", FILE, REPLY)
    await host.settle()
    return host
  }

  test("a custom base URL without a key sends no Authorization header", async () => {
    const before = judge.requests.length
    await turn({ RFE_JUDGE_PROVIDER: "local", RFE_JUDGE_BASE_URL: judge.url, RFE_JUDGE_MAIN_MODEL: "m" })
    const requests = judge.requests.slice(before)
    expect(requests.length).toBeGreaterThan(0)
    for (const request of requests) expect(request.headers.authorization).toBeUndefined()
  })

  test("with a key, the key goes into the Authorization header", async () => {
    const before = judge.requests.length
    const key = fakeKey("judge")
    await turn({
      RFE_JUDGE_PROVIDER: "local",
      RFE_JUDGE_BASE_URL: judge.url,
      RFE_JUDGE_MAIN_MODEL: "m",
      RFE_JUDGE_API_KEY: key,
    })
    const requests = judge.requests.slice(before)
    expect(requests.length).toBeGreaterThan(0)
    for (const request of requests) expect(request.headers.authorization).toBe(`Bearer ${key}`)
  })

  const recordingFetch = () => {
    const urls: string[] = []
    const fetch = async (url: string) => {
      urls.push(url)
      return Response.json({ choices: [{ message: { content: '{"verdict": "faithful", "source": "S1"}' } }] })
    }
    return { urls, fetch }
  }

  test("a plain-http judge off loopback gets no request; RFE_ALLOW_INSECURE_JUDGE=1 lets it through", async () => {
    const env = {
      RFE_JUDGE_PROVIDER: "lan",
      RFE_JUDGE_BASE_URL: "http://judge.example.test/v1",
      RFE_JUDGE_MAIN_MODEL: "m",
    }
    const refused = recordingFetch()
    const host = await turn(env, { fetch: refused.fetch })
    expect(refused.urls).toEqual([])
    expect(host.logs.some((line) => line.level === "warn" && line.message.includes("clear text"))).toBe(true)

    const allowed = recordingFetch()
    await turn({ ...env, RFE_ALLOW_INSECURE_JUDGE: "1" }, { fetch: allowed.fetch })
    expect(allowed.urls.length).toBeGreaterThan(0)
    expect(allowed.urls[0]).toBe("http://judge.example.test/v1/chat/completions")
  })

  test("a preset without a key never calls the judge, and the plugin still returns every hook", async () => {
    const spy = recordingFetch()
    const host = await turn({ RFE_JUDGE_PROVIDER: "synthetic" }, { fetch: spy.fetch })
    expect(spy.urls).toEqual([])
    expect(host.config.judgeDisabled).toContain("SYNTHETIC_API_KEY")
    expect(Object.keys(host.plugin.hooks).sort()).toEqual(HOOK_KEYS)
  })

  test("server() without any judge key loads on the opencode route, with nothing to warn about", async () => {
    const names = [
      "RFE_JUDGE_PROVIDER",
      "RFE_JUDGE_BASE_URL",
      "RFE_JUDGE_API_KEY",
      "SYNTHETIC_API_KEY",
      "OPENROUTER_API_KEY",
    ]
    const saved = names.map((name) => [name, process.env[name]] as const)
    for (const name of names) delete process.env[name]
    const logs: string[] = []
    try {
      const client = {
        app: { log: async (call: { body: { message: string } }) => void logs.push(call.body.message) },
        tui: { showToast: async () => ({}) },
        session: { prompt: async () => ({}), get: async () => ({ data: {} }) },
      }
      const input = { client, directory: "/project" } as unknown as Parameters<typeof plugin.server>[0]
      const hooks = await plugin.server(input, undefined)
      expect(typeof hooks.event).toBe("function")
      expect(typeof hooks["tool.execute.after"]).toBe("function")
      expect(typeof hooks.config).toBe("function")
      expect(logs.filter((message) => message.includes("API_KEY"))).toEqual([])
    } finally {
      for (const [name, value] of saved) if (value !== undefined) process.env[name] = value
    }
  })
})
