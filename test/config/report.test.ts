/** The report settings: RFE_REPORT and RFE_FAIL_ON (env or option), and what GitHub Actions tells each step. */

import { describe, expect, test } from "bun:test"
import { parseConfig } from "../../src/config/config.ts"

const failOn = (options: unknown, env: Record<string, string>) => {
  const { config, warnings } = parseConfig(options, env)
  return { verdicts: [...config.failOn].sort() as string[], warnings }
}

describe("RFE_REPORT", () => {
  test("off by default", () => {
    expect(parseConfig(undefined, {}).config.report).toBeUndefined()
  })

  test.each([
    ["the env", undefined, { RFE_REPORT: " /tmp/r.jsonl " }, "/tmp/r.jsonl"],
    ["the option", { report: "ragfaith.jsonl" }, {}, "ragfaith.jsonl"],
    ["the env over the option", { report: "option.jsonl" }, { RFE_REPORT: "env.jsonl" }, "env.jsonl"],
    ["blank", { report: "   " }, {}, undefined],
  ])("from %s", (_name, options, env, expected) => {
    const { config, warnings } = parseConfig(options, env)
    expect(config.report).toBe(expected)
    expect(warnings).toEqual([])
  })

  test("an option that is not a string is ignored with one warning", () => {
    const { config, warnings } = parseConfig({ report: { path: "x" } }, {})
    expect(config.report).toBeUndefined()
    expect(warnings).toEqual(["ragfaith: option report must be a string; ignoring it"])
  })
})

describe("RFE_FAIL_ON", () => {
  test.each([
    ["unset", undefined, {}, []],
    ["unfaithful", undefined, { RFE_FAIL_ON: "unfaithful" }, ["unfaithful"]],
    [
      "both, any case and spacing",
      undefined,
      { RFE_FAIL_ON: " Unverifiable , UNFAITHFUL" },
      ["unfaithful", "unverifiable"],
    ],
    ["none", undefined, { RFE_FAIL_ON: "none" }, []],
    ["an option array", { failOn: ["unverifiable"] }, {}, ["unverifiable"]],
    ["the env over the option", { failOn: ["unverifiable"] }, { RFE_FAIL_ON: "unfaithful" }, ["unfaithful"]],
  ])("%s", (_name, options, env, expected: string[]) => {
    expect(failOn(options, env)).toEqual({ verdicts: expected, warnings: [] })
  })

  test.each([
    ["faithful, which is no failure", "faithful"],
    ["an unknown verdict", "unfaithful,wrong"],
    ["a typo", "unfaithfull"],
  ])("%s: one warning, and it fails on none", (_name, value) => {
    const { verdicts, warnings } = failOn(undefined, { RFE_FAIL_ON: value })
    expect(verdicts).toEqual([])
    expect(warnings).toEqual([
      `ragfaith: RFE_FAIL_ON=${JSON.stringify(value)} must list verdicts from unfaithful, unverifiable; failing on none`,
    ])
  })

  // Each value in a row of its own: a bare array would be taken as the row's arguments.
  test.each([null, true, 0, 1.5, "", " ", [], [null], {}, { a: [] }].map((value) => [value]))(
    "garbage option %p: at most one warning",
    (value) => {
      const { verdicts, warnings } = failOn({ failOn: value }, {})
      expect(verdicts).toEqual([])
      expect(warnings.length).toBeLessThanOrEqual(1)
    },
  )
})

describe("GitHub Actions", () => {
  test("outside Actions: no summary file and no annotations", () => {
    expect(parseConfig(undefined, {}).config.ci).toEqual({ summary: undefined, annotations: false })
  })

  test("inside Actions: the step's summary file, and annotations", () => {
    const { config } = parseConfig(undefined, { GITHUB_ACTIONS: "true", GITHUB_STEP_SUMMARY: "/runner/_temp/summary" })
    expect(config.ci).toEqual({ summary: "/runner/_temp/summary", annotations: true })
  })

  test("GITHUB_ACTIONS other than true means no annotations", () => {
    expect(parseConfig(undefined, { GITHUB_ACTIONS: "false" }).config.ci.annotations).toBe(false)
  })
})
