// Redaction of what capture keeps: every secret family, clean code untouched, and the read path.
import { describe, expect, test } from "bun:test"
import { redactSecrets } from "../../../src/capture/redact/redact.ts"
import { REDACTED } from "../../../src/capture/redact/values.ts"
import { body, letters, PEM, SECRET, session } from "../../support/capture.ts"
import { readOutput } from "../../support/fixtures.ts"

// ── redaction ──

describe("redaction: every secret family becomes [REDACTED]", () => {
  const R = REDACTED
  test.each([
    ["GitHub ghp_", `token: ${SECRET.ghp}`, `token: ${R}`],
    ["GitHub gho_", `oauth ${SECRET.gho} end`, `oauth ${R} end`],
    ["GitHub ghu_", `(${SECRET.ghu})`, `(${R})`],
    ["GitHub ghs_", `ghs=${SECRET.ghs}`, `ghs=${R}`],
    ["GitHub ghr_", `refresh ${SECRET.ghr}`, `refresh ${R}`],
    ["GitHub github_pat_", `pat ${SECRET.githubPat} end`, `pat ${R} end`],
    ["OpenAI sk-", `key ${SECRET.openai} end`, `key ${R} end`],
    ["OpenAI sk-proj-", `key ${SECRET.openaiProject} end`, `key ${R} end`],
    ["Anthropic sk-ant-", `key ${SECRET.anthropic} end`, `key ${R} end`],
    ["OpenRouter sk-or-v1-", `key ${SECRET.openrouter} end`, `key ${R} end`],
    ["Slack xoxb-", `slack ${SECRET.slackBot} end`, `slack ${R} end`],
    ["Slack xoxp-", `slack ${SECRET.slackUser} end`, `slack ${R} end`],
    ["Slack xapp-", `slack ${SECRET.slackApp} end`, `slack ${R} end`],
    ["Slack webhook", `https://hooks.slack.com/services/T0000/B0000/${body(24)}`, `https://${R}`],
    ["Stripe sk_live_", `stripe ${SECRET.stripeLive} end`, `stripe ${R} end`],
    ["Stripe rk_live_", `stripe ${SECRET.stripeRestricted} end`, `stripe ${R} end`],
    ["Stripe whsec_", `wh${"sec_"}${body(32)}`, R],
    ["Google AIza", `maps ${SECRET.google} end`, `maps ${R} end`],
    ["GitLab glpat-", `gitlab ${SECRET.gitlab} end`, `gitlab ${R} end`],
    ["npm npm_", `//registry.npmjs.org/:_authToken=${SECRET.npm}`, `//registry.npmjs.org/:_authToken=${R}`],
    ["Hugging Face hf_", `hf ${SECRET.huggingface} end`, `hf ${R} end`],
    ["AWS AKIA", `aws_access_key_id ${SECRET.awsKeyId} end`, `aws_access_key_id ${R} end`],
    ["AWS ASIA", `id ${SECRET.awsSessionKeyId}`, `id ${R}`],
    ["JWT", `cookie=${SECRET.jwt}; Path=/`, `cookie=${R}; Path=/`],
    ["Bearer header", `Authorization: Bearer ${body(40)}`, `Authorization: Bearer ${R}`],
    [
      "lowercase bearer",
      `curl -H 'authorization: bearer ${body(30)}.${body(8)}'`,
      `curl -H 'authorization: bearer ${R}'`,
    ],
    ["Basic header", `Authorization: Basic ${btoa(`admin:${body(10)}`)}`, `Authorization: Basic ${R}`],
    ["https user:pass", `https://user:${body(12)}@example.test/path`, `https://${R}@example.test/path`],
    ["postgres URL", `postgres://u:${body(10)}@db.internal:5432/db`, `postgres://${R}@db.internal:5432/db`],
    ["mysql URL", `mysql://root:${body(8)}@localhost/app`, `mysql://${R}@localhost/app`],
    ["redis URL, empty user", `redis://:${body(12)}@cache.internal:6379/0`, `redis://${R}@cache.internal:6379/0`],
    ["quoted api_key =", `api_key = "${body(20)}"`, `api_key = "${R}"`],
    ["JSON password", `{"password": "${letters(12)}"}`, `{"password": "${R}"}`],
    ["YAML token, single quotes", `token: '${body(16)}'`, `token: '${R}'`],
    ["Ruby client_secret =>", `client_secret => "${body(16)}"`, `client_secret => "${R}"`],
    ["camelCase apiKey", `const apiKey = '${body(24)}'`, `const apiKey = '${R}'`],
    ["Go :=", `secret := "${body(16)}"`, `secret := "${R}"`],
    ["dotenv API key", `OPENAI_API_KEY=${body(40)}`, `OPENAI_API_KEY=${R}`],
    ["dotenv password", `DB_PASSWORD=${letters(6)}${body(6)}`, `DB_PASSWORD=${R}`],
    ["exported token", `export GITHUB_TOKEN=${body(30)}`, `export GITHUB_TOKEN=${R}`],
    ["dotenv quoted", `SECRET_KEY="${body(30)}"`, `SECRET_KEY="${R}"`],
    ["RSA key block", `before\n${PEM("RSA ")}\nafter`, `before\n${R}\nafter`],
    ["PKCS8 key block", `${PEM("")}\nafter`, `${R}\nafter`],
    ["EC key block", `a\n${PEM("EC ")}`, `a\n${R}`],
    ["OpenSSH key block", `${PEM("OPENSSH ")}`, R],
    ["encrypted key block", `${PEM("ENCRYPTED ")}`, R],
    [
      "a key block with no END",
      `before\n-----BEGIN OPENSSH PRIVATE KEY-----\n${body(64)}\n${body(64)}`,
      `before\n${R}`,
    ],
    ["an END without its BEGIN", `${body(64)}\n${body(20)}\n-----END PRIVATE KEY-----\nafter`, `${R}\nafter`],
    ["two key blocks", `a\n${PEM("EC ")}\nmid\n${PEM("")}\nz`, `a\n${R}\nmid\n${R}\nz`],
  ])("%s", (_family, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test("several secrets in one text are all redacted and the prose around them stays", () => {
    const input = `Use ${SECRET.ghp} for GitHub and ${SECRET.anthropic} for Claude; AWS is ${SECRET.awsKeyId}.`
    expect(redactSecrets(input)).toBe(`Use ${R} for GitHub and ${R} for Claude; AWS is ${R}.`)
  })

  test("redaction is linear: a megabyte of near-misses takes milliseconds", () => {
    const nearMisses = `sk-${"a-".repeat(30)} ghp_short xoxb- Bearer x api_key = " AKIA eyJ.eyJ. -----BEGIN `.repeat(
      10_000,
    )
    const started = performance.now()
    redactSecrets(nearMisses)
    expect(performance.now() - started).toBeLessThan(1_500)
  })
})

describe("redaction: clean code comes out unchanged", () => {
  test.each([
    ["a git SHA", "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 (HEAD -> main)"],
    ["a sha256", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  file.tgz"],
    ["an npm integrity hash", "integrity sha512-7nRZgV2x1YwJjB4f8c9kOo3xqz2m+Xb5nL8pQ1eE6wKZr9f3T5a0Jm7d2Rk4H1sG=="],
    ["a UUID", "request 123e4567-e89b-12d3-a456-426614174000 failed"],
    ["a ULID", "x-request-id: 01HZX3K8Q9V7Y2B5N4M6P8R0TS"],
    [
      "a base64 image data URI",
      "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==",
    ],
    ["a kebab-case identifier", "sk-learn-compatible-model-wrapper"],
    ["a kebab-case identifier with a version", "pip install sk-learn-compatible-model-wrapper-v2"],
    ["a CSS class with sk- and a digit", '<div class="sk-ui-button-primary-large-rounded-2xl">'],
    ["utility CSS classes", '<div class="flex items-center justify-between px-4 py-2 text-sm sm:px-6 lg:px-8">'],
    ["a token from a function", "const token = getToken()"],
    ["a token from an env lookup", "const token = process.env.GITHUB_TOKEN ?? ''"],
    ["a numeric env setting", "MAX_TOKENS=256"],
    ["another numeric env setting", "TOKEN_EXPIRY_SECONDS=3600"],
    ["an env placeholder", `API_KEY=${"$"}{API_KEY}`],
    ["a password type annotation", "password: string"],
    ["an interface", "interface User { name: string; password: string; token?: string }"],
    ["a signature", "function login(user: string, password: string): Promise<Session> {"],
    ["a hashed password", "const password = await hash(input, 12)"],
    ["a short quoted value", 'token: "abc"'],
    ["TypeScript", "export function add(a: number, b: number): number {\n  return a + b\n}"],
    ["Python", "def main() -> int:\n    print('hello world')\n    return 0"],
    ["Python env access", "import os\nkey = os.environ['API_KEY']"],
    ["a URL without credentials", "https://example.test/docs/api/v2?page=3#section"],
    ["a GitHub URL", "https://github.com/owner/repo/blob/main/src/index.ts"],
    ["a connection string without a password", "postgres://localhost:5432/db"],
    ["an scp-style git remote", "git@github.com:owner/repo.git"],
    ["an ssh URL with a user", "ssh://git@github.com:22/owner/repo.git"],
    ["prose about Bearer tokens", "Bearer token authentication is required for every request."],
    ["prose about Basic auth", "Basic authentication (RFC 7617) sends the password base64-encoded."],
    ["a Basic heading", "## Basic configuration"],
    ["prose about key prefixes", "A ghp_ prefix marks a personal access token; AKIA marks an AWS key id."],
    ["a certificate", "-----BEGIN CERTIFICATE-----\nMIIBszCCAVmgAwIBAgIUZq9Xw8\n-----END CERTIFICATE-----"],
    ["a public SSH key", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIFz9Xw8Zq9Xw8 me@host"],
    ["a semver", "version 1.2.3-beta.4+build.567"],
    ["a word with eyJ", 'the eyJ prefix is base64 for {"'],
  ])("%s", (_name, input) => {
    expect(redactSecrets(input)).toBe(input)
  })
})

// ── the read path redacts the file's text, not its numbered lines ──

describe("read and grep output are redacted as the text of the file", () => {
  const netrc = (indent: string) => `machine api.example.test\n${indent}login deploy\n${indent}password ${body(20)}`
  const stripRead = (text: string) => text.replace(/\n\n\(End of file - total \d+ lines\)$/, "").replace(/^\d+: /gm, "")
  // [label, file text, what must not survive]
  test.each([
    [".netrc over three lines", netrc(""), body(20)],
    [".netrc over three indented lines", netrc("  "), body(20)],
    ["a key block", PEM("RSA "), body(40)],
    ["a key block, then a secret on a line of its own", `${PEM("")}\nDB_PASSWORD=${body(16)}`, body(16)],
    ["a Secret manifest", `apiVersion: v1\nkind: Secret\ndata:\n  anything: ${body(24)}`, body(24)],
    ["a YAML block scalar after a secret's name", `db:\n  password: |\n    ${body(20)}\n  host: db`, body(20)],
    [
      "a cookie jar's session line",
      `# Netscape HTTP Cookie File\n.example.test\tTRUE\t/\tTRUE\t0\tsessionid\t${body(24)}`,
      body(24),
    ],
    ["a password by its position in a call", `auth = HTTPBasicAuth(\n    "admin", "${body(16)}")`, body(16)],
    [
      "a literal piped into a login over a continued line",
      `echo "${body(24)}" | \\\n  docker login -u ci --password-stdin registry.example.test`,
      body(24),
    ],
  ])("%s: a read keeps exactly what a webfetch of the same text keeps", async (_label, file, secret) => {
    const s = await session()
    await s.call("read", { filePath: "/project/a.txt" }, readOutput("/project/a.txt", file))
    await s.call("webfetch", { url: "https://example.test/a" }, { output: file })
    const [read, fetched] = s.premises().map((premise) => premise.text)
    expect(fetched).not.toContain(secret)
    expect(stripRead(read ?? "")).toBe(fetched ?? "")
  })

  test("a key block's lines leave with it, and every other line keeps its own number", async () => {
    const s = await session()
    const file = `before\n${PEM("")}\nafter`
    await s.call("read", { filePath: "/project/k.txt" }, readOutput("/project/k.txt", file))
    expect(s.premises()[0]?.text).toBe(`1: before\n2: ${REDACTED}\n6: after\n\n(End of file - total 6 lines)`)
  })

  test("grep's `Line N:` numbers are set aside the same way", async () => {
    const s = await session({ RFE_EVIDENCE_SCOPE: "all" })
    const output = `Found 1 matches\n/project/notes.md:\n  Line 3: password ${body(20)}\n  Line 4: machine api.example.test`
    await s.call("grep", { pattern: "machine", path: "/project" }, { output })
    expect(s.premises()[0]?.text).toBe(
      `Found 1 matches\n/project/notes.md:\n  Line 3: password ${REDACTED}\n  Line 4: machine api.example.test`,
    )
  })
})
