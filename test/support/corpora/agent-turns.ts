/**
 * Ten agent turns for the cost benchmark: the sources the agent pulled (file reads, a fetched docs page,
 * command output) and its final markdown reply. Eight are English, two German. The libraries named in the
 * docs pages (quickroute, tinyorm, PayFlux) are invented, so no page is copied from anywhere.
 */

import { readOutput } from "../fixtures.ts"
import type { createHost } from "../host.ts"

export interface CorpusSource {
  tool: "read" | "webfetch" | "bash"
  args: Record<string, unknown>
  output: string
  title?: string
  metadata?: Record<string, unknown>
}

export interface CorpusEntry {
  name: string
  lang: "en" | "de"
  prompt: string
  sources: CorpusSource[]
  reply: string
}

const read = (path: string, text: string): CorpusSource => ({
  tool: "read",
  args: { filePath: path },
  ...readOutput(path, text),
})

const fetched = (url: string, text: string): CorpusSource => ({
  tool: "webfetch",
  args: { url, format: "markdown" },
  output: text,
  title: `${url} (text/html; charset=utf-8)`,
  metadata: { truncated: false },
})

const ran = (command: string, output: string, exit = 0): CorpusSource => ({
  tool: "bash",
  args: { command, description: "Run a command" },
  output,
  title: command,
  metadata: { output, exit, truncated: false },
})

const FENCE = "```"

// ── 1. retry-config ──────────────────────────────────────────────────────────────────────────────────────

const RETRY_TS = `import { setTimeout as sleep } from "node:timers/promises"

/** Statuses worth another attempt: timeouts, rate limits and server errors. */
export const RETRY_STATUS = new Set([408, 429, 500, 502, 503, 504])
export const MAX_ATTEMPTS = 5
export const BASE_DELAY_MS = 250
export const MAX_DELAY_MS = 10_000

export interface RetryOptions {
  attempts?: number
  baseDelayMs?: number
  signal?: AbortSignal
}

/** Full-jitter exponential backoff: half the ceiling plus a random half. */
export function backoff(attempt: number, random = Math.random): number {
  const ceiling = Math.min(MAX_DELAY_MS, BASE_DELAY_MS * 2 ** (attempt - 1))
  return Math.round(ceiling / 2 + (random() * ceiling) / 2)
}

/** Retries a request while the server answers with a retryable status. HTTP errors are returned, not thrown. */
export async function withRetry(work: () => Promise<Response>, options: RetryOptions = {}): Promise<Response> {
  const attempts = options.attempts ?? MAX_ATTEMPTS
  for (let attempt = 1; ; attempt++) {
    const response = await work()
    if (response.ok || !RETRY_STATUS.has(response.status) || attempt >= attempts) return response
    const retryAfter = Number(response.headers.get("retry-after"))
    const delay = Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter * 1000 : backoff(attempt)
    await sleep(delay, undefined, { signal: options.signal })
  }
}`

const retryConfig: CorpusEntry = {
  name: "retry-config",
  lang: "en",
  prompt: "How does our retry logic work?",
  sources: [read("/project/src/retry.ts", RETRY_TS)],
  reply: `## How retries work

\`withRetry\` in \`src/retry.ts\` retries a request when the response status is one of 408, 429, 500, 502, 503 or 504. By default it makes at most 5 attempts, including the first one. Other failures such as 400 or 401 are returned immediately without another attempt.

The delay between attempts uses exponential backoff with jitter:

- The base delay is 250 ms and it doubles with each attempt.
- The delay is capped at 10 seconds.
- A \`Retry-After\` header from the server takes precedence over the computed backoff.
- The wait can be cancelled through the optional \`AbortSignal\`.

For example, the third attempt waits between 500 and 1000 ms.

${FENCE}ts
const response = await withRetry(() => fetch(url), { attempts: 3 })
${FENCE}

Note that \`withRetry\` never throws on an HTTP error; it returns the last response. Network errors thrown by \`fetch\` are not retried at all. Let me know if you want me to add retries for network errors too.`,
}

// ── 2. quickroute-middleware ─────────────────────────────────────────────────────────────────────────────

const QUICKROUTE_DOCS = `quickroute docs

# Middleware

Middleware functions run before your route handler. Each middleware receives the request context and a \`next\` function.

## Registering middleware

Call \`app.use()\` to register middleware for every route. Middleware runs in the order it was registered.

    app.use(logger())
    app.use(cors({ origin: "https://example.com" }))

To register middleware for a single route group, pass it to \`app.group()\` instead.

## Short-circuiting

A middleware that returns a \`Response\` without calling \`next()\` ends the request early. The remaining middleware and the route handler are skipped.

## Error handling

Errors thrown inside middleware are caught by the error boundary. By default the error boundary responds with status 500 and a JSON body of the form \`{"error": "Internal Server Error"}\`. You can replace it with \`app.onError()\`.

## Built-in middleware

| Name | Purpose | Since |
|------|---------|-------|
| logger | request logging | 1.0 |
| cors | CORS headers | 1.2 |
| compress | gzip and brotli compression | 2.0 |
| timeout | abort slow handlers | 2.1 |

The timeout middleware aborts a handler after 30 seconds unless you pass a different \`ms\` option. Aborted requests receive status 503.

## Order of execution

Global middleware always runs before group middleware. Within a group, middleware runs in registration order.

## See also

- [Routing](https://quickroute.dev/docs/routing)
- [Context](https://quickroute.dev/docs/context)`

const quickroute: CorpusEntry = {
  name: "quickroute-middleware",
  lang: "en",
  prompt: "How do I add middleware in quickroute?",
  sources: [fetched("https://quickroute.dev/docs/middleware", QUICKROUTE_DOCS)],
  reply: `Here's how middleware works in quickroute:

1. Middleware is registered with \`app.use()\` and runs in the order it was registered.
2. Group-specific middleware goes through \`app.group()\`, and global middleware always runs before group middleware.
3. If a middleware returns a \`Response\` without calling \`next()\`, the request ends early and the route handler is skipped.

Errors thrown inside middleware are caught by the error boundary. By default it responds with status 500 and a JSON error body, and you can customise this with \`app.onError()\`.

The built-in \`timeout\` middleware was added in version 2.1. It aborts a handler after 30 seconds unless you pass a different \`ms\` option. Aborted requests receive status 504.

The \`compress\` middleware supports gzip and brotli. Hope this helps!`,
}

// ── 3. test-run ──────────────────────────────────────────────────────────────────────────────────────────

const TEST_OUTPUT = `bun test v1.3.14 (1e86cebd)

test/config.test.ts:
(pass) parseConfig > defaults [0.41ms]
(pass) parseConfig > env wins over options [0.12ms]
(pass) parseConfig > bad concurrency falls back [0.09ms]
(pass) parseConfig > strict adds unverifiable [0.05ms]

test/cache.test.ts:
(pass) cache > loads once per model [1.20ms]
(pass) cache > appends one line per verdict [0.61ms]
(fail) cache > skips a truncated last line [2.31ms]
  error: expect(received).toBe(expected)

  Expected: 3
  Received: 2

      at <anonymous> (test/cache.test.ts:48:29)

test/judge.test.ts:
(pass) judge > retries 429 with Retry-After [3.02ms]
(pass) judge > fails fast on 401 [0.88ms]
(fail) judge > parse fallback counts a parse error [1.10ms]
  error: expect(received).toEqual(expected)

  {
  -   "parseErrors": 1,
  +   "parseErrors": 0,
  }

      at <anonymous> (test/judge.test.ts:131:25)

test/claims.test.ts:
(pass) splitClaims > drops code blocks [0.33ms]
(pass) splitClaims > merges abbreviations [0.21ms]

 38 pass
 2 fail
 96 expect() calls
Ran 40 tests across 6 files. [412.00ms]`

const CACHE_TEST = `import { expect, test } from "bun:test"
import plugin from "../src/index.ts"

test("skips a truncated last line", () => {
  const lines = [
    '{"k":"a","v":"faithful","t":1}',
    '{"k":"b","v":"unfaithful","t":2}',
    '{"k":"c","v":"unverifiable","t":3}',
    '{"k":"d","v":"faith',
  ]
  expect(parseCacheLines(lines.join("\\n")).length).toBe(3)
})`

const testRun: CorpusEntry = {
  name: "test-run",
  lang: "en",
  prompt: "Run the tests and tell me what fails.",
  sources: [ran("bun test", TEST_OUTPUT, 1), read("/project/test/cache.test.ts", CACHE_TEST)],
  reply: `The test run finished with 38 passing and 2 failing tests across 6 files.

**Failures**

- \`cache > skips a truncated last line\` expected 3 records but received 2 (test/cache.test.ts, line 48).
- \`judge > parse fallback counts a parse error\` expected \`parseErrors\` to be 1, but it was 0.

Both failures are in the cache and judge areas; the config and claims tests all pass. The whole run took about 412 ms.

The truncated-line test feeds four lines to \`parseCacheLines\`, and only the last one is cut off. Since the parser returned 2 records instead of 3, it seems to drop a complete record along with the broken one. The judge failure means the parse fallback path no longer increments the counter.

Would you like me to fix the parser first?`,
}

// ── 4. release-history ───────────────────────────────────────────────────────────────────────────────────

const GIT_LOG = `9f2c1e4 (HEAD -> main, tag: v0.4.0) Release 0.4.0
7a1d0b3 Judge: honour Retry-After on 429 and 503
c4e88f2 Cache: one JSONL file per judge model
51b9a07 Claims: merge German ordinals and dates
e03f6d1 (tag: v0.3.2) Release 0.3.2
2bd4c9a Redaction: cover GitHub fine-grained tokens
8e7f310 Fix: note depth reset on synthetic messages
0aa4b57 (tag: v0.3.1) Release 0.3.1`

const CHANGELOG = `# Changelog

## 0.4.0 — 2026-11-12

### Added
- The judge honours \`Retry-After\` on 429 and 503 answers, capped at 30 seconds.
- Verdicts are cached in one JSONL file per judge model under \`RFE_CACHE_DIR\`.

### Changed
- German ordinals and dates ("am 3. Mai") no longer split a sentence in two.

## 0.3.2 — 2026-10-28

### Fixed
- GitHub fine-grained tokens (\`github_pat_\`) are redacted.
- A synthetic message no longer resets the note depth.

## 0.3.1 — 2026-10-20

### Fixed
- The plugin no longer crashes when a tool returns no output.`

const releaseHistory: CorpusEntry = {
  name: "release-history",
  lang: "en",
  prompt: "What changed in the last two releases?",
  sources: [ran("git log --oneline -8", GIT_LOG), read("/project/CHANGELOG.md", CHANGELOG)],
  reply: `### Release 0.4.0 (2026-11-12)

- The judge honours \`Retry-After\` on 429 and 503 answers, capped at 30 seconds.
- Verdicts are cached in one JSONL file per judge model under \`RFE_CACHE_DIR\`.
- German ordinals and dates no longer split a sentence in two.

### Release 0.3.2 (2026-10-28)

- GitHub fine-grained tokens are now redacted.
- A synthetic message no longer resets the note depth.

Between 0.3.2 and 0.4.0 there were three commits, one each for the judge, the cache and the claim splitter. The 0.4.0 tag points at commit 9f2c1e4, which is the current HEAD of main. Release 0.3.1 only fixed a crash when a tool returned no output. Let me know if you need the full diff.`,
}

// ── 5. python-cli ────────────────────────────────────────────────────────────────────────────────────────

const CLI_PY = `"""Command-line entry point for the exporter."""

import argparse
import sys

from exporter.core import export_all, DEFAULT_BATCH


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="exporter", description="Export tables to Parquet.")
    parser.add_argument("tables", nargs="+", help="tables to export")
    parser.add_argument("--out", default="./export", help="output directory (default: ./export)")
    parser.add_argument("--batch", type=int, default=DEFAULT_BATCH, help="rows per batch")
    parser.add_argument("--since", help="only rows changed after this ISO date")
    parser.add_argument("--dry-run", action="store_true", help="print the plan, write nothing")
    parser.add_argument("-v", "--verbose", action="count", default=0)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.batch <= 0:
        print("--batch must be positive", file=sys.stderr)
        return 2
    return export_all(args.tables, out=args.out, batch=args.batch, since=args.since, dry_run=args.dry_run)


if __name__ == "__main__":
    sys.exit(main())`

const CORE_PY = `import logging

log = logging.getLogger(__name__)

DEFAULT_BATCH = 50_000


def export_all(tables, out, batch=DEFAULT_BATCH, since=None, dry_run=False) -> int:
    for table in tables:
        log.info("exporting %s in batches of %d", table, batch)
        if dry_run:
            continue
        _export_table(table, out, batch, since)
    return 0`

const pythonCli: CorpusEntry = {
  name: "python-cli",
  lang: "en",
  prompt: "What options does the exporter CLI have?",
  sources: [read("/project/exporter/cli.py", CLI_PY), read("/project/exporter/core.py", CORE_PY)],
  reply: `The exporter CLI (\`exporter/cli.py\`) takes one or more table names as positional arguments, plus these options:

| Option | Default | Meaning |
|---|---|---|
| \`--out\` | \`./export\` | output directory |
| \`--batch\` | 50000 | rows per batch |
| \`--since\` | none | only rows changed after an ISO date |
| \`--dry-run\` | off | print the plan, write nothing |
| \`-v\` | 0 | verbosity, repeatable |

The default batch size comes from \`DEFAULT_BATCH\` in \`exporter/core.py\`, which is 50,000 rows. A batch size of zero or less is rejected with exit code 2. With \`--dry-run\`, \`export_all\` logs each table but skips the actual export. The exporter writes Parquet files.
import { parseCacheLines } from "../src/judge/cache.ts"

Example:

${FENCE}sh
python -m exporter.cli orders customers --since 2026-01-01 --dry-run
${FENCE}

The \`-v\` flag is parsed but nothing in the code reads it yet. I can wire it up to the logging level if you want.`,
}

// ── 6. tinyorm-upgrade ───────────────────────────────────────────────────────────────────────────────────

const TINYORM_GUIDE = `Upgrading to tinyorm 3

# Migrating from tinyorm 2 to 3

tinyorm 3 requires Node.js 20 or later. Version 3 drops the callback API entirely; every query method returns a promise.

## Breaking changes

### Connection

\`createPool()\` was renamed to \`connect()\`. The \`max\` option is now called \`poolSize\` and defaults to 10.

    // tinyorm 2
    const db = createPool({ url, max: 20 })
    // tinyorm 3
    const db = await connect({ url, poolSize: 20 })

### Queries

\`db.query()\` no longer accepts a callback. \`findOne()\` returns \`null\` instead of \`undefined\` when no row matches.

### Transactions

\`db.transaction()\` now rolls back automatically when the callback throws. In version 2 you had to call \`rollback()\` yourself.

### Removed

- \`db.raw()\` was removed; use \`db.sql\` tagged templates instead.
- The \`sqlite3\` driver is no longer bundled. Install \`@tinyorm/sqlite\` separately.

## Codemod

Run \`npx @tinyorm/codemod v3 src/\` to rewrite \`createPool\` calls and callback queries automatically. The codemod does not touch \`db.raw()\` calls; you have to migrate those by hand.`

const PACKAGE_JSON = `{
  "name": "orders-service",
  "version": "1.8.0",
  "type": "module",
  "engines": { "node": ">=18" },
  "dependencies": {
    "tinyorm": "^2.6.1",
    "sqlite3": "^5.1.7",
    "zod": "^3.23.8"
  },
  "scripts": {
    "start": "node src/server.js",
    "test": "node --test"
  }
}`

const tinyormUpgrade: CorpusEntry = {
  name: "tinyorm-upgrade",
  lang: "en",
  prompt: "Upgrade us to tinyorm 3. What do we need to change?",
  sources: [
    fetched("https://tinyorm.dev/guides/upgrading-to-3", TINYORM_GUIDE),
    read("/project/package.json", PACKAGE_JSON),
  ],
  reply: `## Upgrading orders-service to tinyorm 3

Your \`package.json\` pins \`tinyorm\` at \`^2.6.1\` and declares \`"node": ">=18"\`. tinyorm 3 requires Node.js 20 or later, so the engines field has to change first.

**What breaks:**

1. \`createPool()\` was renamed to \`connect()\`, and it is now async.
2. The \`max\` option is now called \`poolSize\` and defaults to 10.
3. \`findOne()\` returns \`null\` instead of \`undefined\` when no row matches, so checks like \`=== undefined\` need updating.
4. \`db.transaction()\` now rolls back automatically when the callback throws.
5. \`db.raw()\` was removed; use \`db.sql\` tagged templates instead.

You also depend on \`sqlite3\` directly. The \`sqlite3\` driver is no longer bundled, so you'll need \`@tinyorm/sqlite\` as well.

${FENCE}sh
npm install tinyorm@3 @tinyorm/sqlite
npx @tinyorm/codemod v3 src/
${FENCE}

The codemod rewrites \`createPool\` calls and callback queries automatically. It does not touch \`db.raw()\` calls, which you have to migrate by hand. Shall I run the codemod now?`,
}

// ── 7. config-env ────────────────────────────────────────────────────────────────────────────────────────

const CONFIG_TS = `/** Runtime configuration, read once at start-up. */
export interface ServerConfig {
  port: number
  host: string
  logLevel: "debug" | "info" | "warn" | "error"
  sessionTtlSeconds: number
  corsOrigins: string[]
}

const LEVELS = ["debug", "info", "warn", "error"] as const

export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(env.PORT ?? 8080)
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error("PORT must be a TCP port")
  const logLevel = (env.LOG_LEVEL ?? "info").toLowerCase()
  if (!LEVELS.includes(logLevel as (typeof LEVELS)[number])) throw new Error("LOG_LEVEL is invalid")
  return {
    port,
    host: env.HOST ?? "0.0.0.0",
    logLevel: logLevel as ServerConfig["logLevel"],
    sessionTtlSeconds: Number(env.SESSION_TTL ?? 86_400),
    corsOrigins: (env.CORS_ORIGINS ?? "").split(",").map((origin) => origin.trim()).filter(Boolean),
  }
}`

const README_ENV = `## Configuration

All settings come from environment variables.

| Variable | Default | Description |
|---|---|---|
| PORT | 8080 | TCP port to listen on |
| HOST | 0.0.0.0 | interface to bind |
| LOG_LEVEL | info | one of debug, info, warn, error |
| SESSION_TTL | 86400 | session lifetime in seconds |
| CORS_ORIGINS | (empty) | comma-separated list of allowed origins |

An invalid PORT or LOG_LEVEL stops the server at start-up.`

const configEnv: CorpusEntry = {
  name: "config-env",
  lang: "en",
  prompt: "Which environment variables does the server read, and what happens with bad values?",
  sources: [read("/project/src/config.ts", CONFIG_TS), read("/project/README.md", README_ENV)],
  reply: `The server reads five environment variables in \`loadConfig()\` (\`src/config.ts\`):

- **PORT** (default 8080): must be an integer between 1 and 65535, otherwise \`loadConfig\` throws "PORT must be a TCP port".
- **HOST** (default \`0.0.0.0\`): the interface to bind.
- **LOG_LEVEL** (default \`info\`): one of debug, info, warn, error. It is lower-cased first, so \`DEBUG\` works too.
- **SESSION_TTL** (default 86400): session lifetime in seconds, which is one day.
- **CORS_ORIGINS** (default empty): a comma-separated list of allowed origins; blanks are trimmed and empty entries dropped.

An invalid PORT or LOG_LEVEL stops the server at start-up. SESSION_TTL is not validated, so a value like \`abc\` becomes \`NaN\` without an error. The README and the code agree on every default.

If you want, I can add validation for SESSION_TTL.`,
}

// ── 8. orders-migration ──────────────────────────────────────────────────────────────────────────────────

const MIGRATION_SQL = `-- 0042: speed up the order history page.
-- The page filters by customer and sorts by creation time, newest first.

CREATE INDEX CONCURRENTLY IF NOT EXISTS orders_customer_created_idx
  ON orders (customer_id, created_at DESC);

-- The old single-column index is covered by the new one.
DROP INDEX CONCURRENTLY IF EXISTS orders_customer_idx;

ALTER TABLE orders ADD COLUMN IF NOT EXISTS archived_at timestamptz;`

const MIGRATE_OUTPUT = `> orders-service@1.8.0 migrate
> node scripts/migrate.js

Connected to postgres://orders@db.internal:5432/orders
Pending migrations: 2
  ✓ 0041_add_refund_reason.sql (38 ms)
  ✓ 0042_add_orders_index.sql (4.21 s)
Applied 2 migrations in 4.25 s.`

const ordersMigration: CorpusEntry = {
  name: "orders-migration",
  lang: "en",
  prompt: "Apply the pending migrations and summarise what changed.",
  sources: [
    read("/project/migrations/0042_add_orders_index.sql", MIGRATION_SQL),
    ran("npm run migrate", MIGRATE_OUTPUT),
  ],
  reply: `Both pending migrations were applied successfully in 4.25 s.

**0041_add_refund_reason.sql** took 38 ms.

**0042_add_orders_index.sql** took 4.21 s and did three things:

1. It created \`orders_customer_created_idx\` on \`orders (customer_id, created_at DESC)\`, which matches how the order history page filters by customer and sorts newest first.
2. It dropped the old single-column index \`orders_customer_idx\`, since the new composite index covers it.
3. It added a nullable \`archived_at timestamptz\` column to \`orders\`.

Both index operations use \`CONCURRENTLY\`, so the table stayed writable while the index was built. The migration is idempotent thanks to the \`IF NOT EXISTS\` and \`IF EXISTS\` guards. Nothing in the application reads \`archived_at\` yet.`,
}

// ── 9. de-api-client ─────────────────────────────────────────────────────────────────────────────────────

const CLIENT_TS = `import { withRetry } from "../retry"

export interface ClientOptions {
  baseUrl: string
  token: string
  timeoutMs?: number
}

/** Dünner Client für die Lager-API. Jede Methode wirft bei HTTP-Fehlern einen ApiError. */
export class InventoryClient {
  readonly #base: string
  readonly #token: string
  readonly #timeoutMs: number

  constructor(options: ClientOptions) {
    this.#base = options.baseUrl.replace(/\\/+$/, "")
    this.#token = options.token
    this.#timeoutMs = options.timeoutMs ?? 15_000
  }

  async stock(sku: string): Promise<number> {
    const body = await this.#get("/v2/stock/" + encodeURIComponent(sku))
    return body.available
  }

  async reserve(sku: string, quantity: number): Promise<string> {
    if (quantity < 1 || quantity > 500) throw new RangeError("quantity must be between 1 and 500")
    const body = await this.#post("/v2/reservations", { sku, quantity })
    return body.reservationId
  }

  async #get(path: string) {
    const response = await withRetry(() => fetch(this.#base + path, this.#init("GET")))
    if (!response.ok) throw new ApiError(response.status, path)
    return response.json()
  }

  async #post(path: string, payload: unknown) {
    // POST is not idempotent: no retry here.
    const response = await fetch(this.#base + path, { ...this.#init("POST"), body: JSON.stringify(payload) })
    if (!response.ok) throw new ApiError(response.status, path)
    return response.json()
  }

  #init(method: string): RequestInit {
    return {
      method,
      headers: { authorization: "Bearer " + this.#token, "content-type": "application/json" },
      signal: AbortSignal.timeout(this.#timeoutMs),
    }
  }
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly path: string) {
    super("Lager-API antwortete mit HTTP " + status + " auf " + path)
  }
}`

const deApiClient: CorpusEntry = {
  name: "de-api-client",
  lang: "de",
  prompt: "Erklär mir bitte den InventoryClient.",
  sources: [read("/project/src/api/client.ts", CLIENT_TS)],
  reply: `## Der InventoryClient

Der \`InventoryClient\` in \`src/api/client.ts\` ist ein dünner Client für die Lager-API. Er bietet zwei öffentliche Methoden:

- \`stock(sku)\` fragt \`/v2/stock/<sku>\` ab und gibt die verfügbare Menge zurück.
- \`reserve(sku, quantity)\` legt über \`/v2/reservations\` eine Reservierung an und gibt deren ID zurück.

Die Menge bei \`reserve\` muss zwischen 1 und 500 liegen, sonst wirft die Methode einen \`RangeError\`. Jede Anfrage bricht standardmäßig nach 15 Sekunden ab; über \`timeoutMs\` lässt sich das ändern.

GET-Anfragen laufen über \`withRetry\` und werden bei 429 oder 5xx automatisch wiederholt. POST-Anfragen werden bewusst nicht wiederholt, weil sie nicht idempotent sind. Bei HTTP-Fehlern wirft jede Methode einen \`ApiError\` mit Status und Pfad.

Der Token wird als Bearer-Token im \`authorization\`-Header mitgeschickt, z. B. bei jeder Reservierung. Ein abschließender Schrägstrich in der \`baseUrl\` wird entfernt.

Soll ich noch Tests für den Client schreiben?`,
}

// ── 10. de-payflux-webhooks ──────────────────────────────────────────────────────────────────────────────

const PAYFLUX_DOCS = `PayFlux Entwicklerdokumentation

# Webhooks

PayFlux sendet Ereignisse als HTTP-POST an die hinterlegte Webhook-URL. Jede Zustellung enthält den Header \`PayFlux-Signature\`.

## Signatur prüfen

Die Signatur ist ein HMAC-SHA256 über den rohen Request-Body, berechnet mit dem Webhook-Secret. Vergleichen Sie die Signatur immer zeitkonstant. Anfragen mit einem Zeitstempel, der älter als 5 Minuten ist, sollten Sie verwerfen.

## Wiederholungen

Antwortet Ihr Endpunkt nicht innerhalb von 10 Sekunden mit einem 2xx-Status, gilt die Zustellung als fehlgeschlagen. PayFlux wiederholt fehlgeschlagene Zustellungen bis zu 8 Mal über 24 Stunden, mit wachsenden Abständen.

Nach 8 fehlgeschlagenen Versuchen wird der Endpunkt deaktiviert und der Kontoinhaber per E-Mail benachrichtigt.

## Ereignistypen

| Typ | Auslöser |
|---|---|
| payment.succeeded | Zahlung erfolgreich |
| payment.failed | Zahlung abgelehnt |
| refund.created | Erstattung angelegt |

Ereignisse können mehrfach zugestellt werden. Verwenden Sie die Ereignis-ID, um Duplikate zu erkennen.`

const CURL_OUTPUT = `HTTP/1.1 200 OK
content-type: application/json

{"id":"evt_test_4f1c","type":"payment.succeeded","delivered":true,"attempt":1,"response_ms":412}`

const dePayflux: CorpusEntry = {
  name: "de-payflux-webhooks",
  lang: "de",
  prompt: "Wie funktionieren die PayFlux-Webhooks, und kommt unser Test-Event an?",
  sources: [
    fetched("https://docs.payflux.example/de/webhooks", PAYFLUX_DOCS),
    ran("curl -si -X POST https://api.payflux.example/v1/webhooks/test -d type=payment.succeeded", CURL_OUTPUT),
  ],
  reply: `### PayFlux-Webhooks im Überblick

PayFlux sendet Ereignisse als HTTP-POST an die hinterlegte Webhook-URL. Jede Zustellung trägt den Header \`PayFlux-Signature\`, ein HMAC-SHA256 über den rohen Body mit dem Webhook-Secret.

Wichtig für unsere Implementierung:

1. Die Signatur muss zeitkonstant verglichen werden.
2. Anfragen mit einem Zeitstempel, der älter als 5 Minuten ist, sollten wir verwerfen.
3. Unser Endpunkt muss innerhalb von 10 Sekunden mit 2xx antworten.
4. Ereignisse können mehrfach zugestellt werden, deshalb brauchen wir eine Duplikaterkennung über die Ereignis-ID.

PayFlux wiederholt fehlgeschlagene Zustellungen bis zu 8 Mal über 24 Stunden. Danach wird der Endpunkt deaktiviert und der Kontoinhaber per E-Mail benachrichtigt.

Das Test-Event \`payment.succeeded\` wurde beim ersten Versuch zugestellt, die Antwort kam nach 412 ms. Unser Endpunkt funktioniert also.

Falls du möchtest, baue ich die Signaturprüfung als Middleware ein.`,
}

export const CORPUS: readonly CorpusEntry[] = [
  retryConfig,
  quickroute,
  testRun,
  releaseHistory,
  pythonCli,
  tinyormUpgrade,
  configEnv,
  ordersMigration,
  deApiClient,
  dePayflux,
]

/** One corpus turn on the fake host: the user's prompt, each source as the tool call that pulled it, the reply. */
export async function playTurn(
  host: ReturnType<typeof createHost>,
  turn: Pick<CorpusEntry, "prompt" | "sources" | "reply">,
): Promise<string> {
  const session = await host.createSession()
  const userID = await host.userMessage(session, turn.prompt)
  for (const source of turn.sources) {
    await host.toolCall(session, userID, source.tool, source.args, {
      output: source.output,
      ...(source.title ? { title: source.title } : {}),
      ...(source.metadata ? { metadata: source.metadata } : {}),
    })
  }
  await host.reply(session, userID, turn.reply)
  return session
}
