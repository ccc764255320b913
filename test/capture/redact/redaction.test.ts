import { describe, expect, test } from "bun:test"
import { redactSecrets, SECRET_RULES } from "../../../src/capture/redact/redact.ts"
import { REDACTED } from "../../../src/capture/redact/values.ts"
import { CLEAN_CORPUS } from "../../support/corpora/clean.ts"
import { ALPHABETS, changedLines, corpora, drawer, SHAPES, tally } from "../../support/corpora/secrets.ts"
import { whyNegative } from "../../support/peers.ts"

// ── coverage on the generated corpora ──

const { promised: PROMISED, vendors: VENDORS, extras: EXTRAS, shapes: ASSIGNMENTS } = corpora()

const byFamily = (sample: { family: string; context: string }) => `${sample.family}, ${sample.context}`
const rows = (tallies: ReturnType<typeof tally>) => tallies.map((row) => [row.group, row] as const)

describe("redaction: every family redacted standing alone and behind its name, at least 99%", () => {
  test.each([
    ...rows(tally(PROMISED, redactSecrets, byFamily)),
    ...rows(tally(VENDORS, redactSecrets, byFamily)),
    ...rows(tally(EXTRAS, redactSecrets, byFamily)),
  ])("%s", (_group, row) => {
    expect({ missed: row.missed, share: row.redacted / row.total >= 0.99 }).toEqual({ missed: row.missed, share: true })
  })
})

describe("redaction: every assignment shape redacted with its name kept, at least 95%", () => {
  test.each(rows(tally(ASSIGNMENTS, redactSecrets, (sample) => sample.shape)))("%s", (_shape, row) => {
    expect({ missed: row.missed, share: row.redacted / row.total >= 0.95 }).toEqual({ missed: row.missed, share: true })
  })

  test("every shape of the issue is in the corpus", () => {
    const shapes = new Set(SHAPES.map((shape) => shape.shape))
    for (const shape of ["INI", "YAML unquoted", "XML element", "XML attribute", "Go", "Makefile", "curl -u"]) {
      expect(shapes.has(shape)).toBe(true)
    }
    for (const shape of ["alignment spaces", "docker login -p", "mysql -p", ".netrc", "Java, Kotlin", "PHP"]) {
      expect(shapes.has(shape)).toBe(true)
    }
  })
})

describe("redaction: one shape each, exactly: the name stays readable, quotes stay, only the value goes", () => {
  const R = REDACTED
  const v = drawer(5)(20)
  test.each([
    ["INI, unquoted", `[default]\naws_secret_access_key = ${v}`, `[default]\naws_secret_access_key = ${R}`],
    ["YAML, CI env", `env:\n  AWS_SECRET_ACCESS_KEY: ${v}`, `env:\n  AWS_SECRET_ACCESS_KEY: ${R}`],
    ["aws CLI output", `SecretAccessKey: ${v}`, `SecretAccessKey: ${R}`],
    ["lower-case prefixed name", `db_password: ${v}`, `db_password: ${R}`],
    ["camelCase suffix", `githubToken=${v}`, `githubToken=${R}`],
    ["XML element", `<password>${v}</password>`, `<password>${R}</password>`],
    ["XML element over three lines", `<password>\n  ${v}\n</password>`, `<password>\n  ${R}\n</password>`],
    ["XML key/value attributes", `<add key="Password" value="${v}"/>`, `<add key="Password" value="${R}"/>`],
    ["Go typed var", `var apiToken string = "${v}"`, `var apiToken string = "${R}"`],
    ["backtick string", `token := \`${v}\``, `token := \`${R}\``],
    ["PHP .=", `$token .= "${v}";`, `$token .= "${R}";`],
    ["Makefile ::=", `API_TOKEN ::= ${v}`, `API_TOKEN ::= ${R}`],
    ["Makefile ?=", `API_TOKEN ?= ${v}`, `API_TOKEN ?= ${R}`],
    ["System.setProperty", `System.setProperty("X_TOKEN", "${v}");`, `System.setProperty("X_TOKEN", "${R}");`],
    ["wide alignment", `DB_PASSWORD          = ${v}`, `DB_PASSWORD          = ${R}`],
    ["curl -u", `curl -u admin:${v} https://x.test`, `curl -u admin:${R} https://x.test`],
    ["docker login -p", `docker login -u ci -p ${v} registry.test`, `docker login -u ci -p ${R} registry.test`],
    ["mysql -p, glued", `mysql -u root -p${v} app`, `mysql -u root -p${R} app`],
    [".netrc", `machine api.test login ci password ${v}`, `machine api.test login ci password ${R}`],
    ["Kubernetes env, two lines", `- name: DB_PASSWORD\n  value: "${v}"`, `- name: DB_PASSWORD\n  value: "${R}"`],
    ["Authorization: token", `Authorization: token ${v}`, `Authorization: token ${R}`],
    ["Authorization, bare value", `Authorization: ${v}`, `Authorization: ${R}`],
    [".npmrc with a space", `_authToken = ${v}`, `_authToken = ${R}`],
    ["command-line flag", `deploy --api-key ${v} --region eu`, `deploy --api-key ${R} --region eu`],
    ["connection string", `Server=db;User Id=app;Password=${v};`, `Server=db;User Id=app;Password=${R};`],
    ["query string", `https://api.test/v1?api_key=${v}&page=2`, `https://api.test/v1?api_key=${R}&page=2`],
    ["a plain word in a query", "GET /api/users?api-key=rawr HTTP/1.1", `GET /api/users?api-key=${R} HTTP/1.1`],
    ["PowerShell", `$env:FLASK_SECRET_KEY = "${v}"`, `$env:FLASK_SECRET_KEY = "${R}"`],
    [
      "a password shaped like an e-mail address",
      "'ENCRYPTION_KEY' => 'Fb5L-Hk@2.GB84',",
      `'ENCRYPTION_KEY' => '${R}',`,
    ],
    ["SQL", `CREATE USER app WITH PASSWORD '${v}';`, `CREATE USER app WITH PASSWORD '${R}';`],
    ["a personal access token's name", `export AZURE_DEVOPS_PAT="${v}"`, `export AZURE_DEVOPS_PAT="${R}"`],
    [
      "nuget push's key",
      `nuget push app.nupkg ${v} -Source https://x.test`,
      `nuget push app.nupkg ${R} -Source https://x.test`,
    ],
    ["dotnet nuget -k", `dotnet nuget push app.nupkg -k ${v}`, `dotnet nuget push app.nupkg -k ${R}`],
    ["psexec -p", `psexec \\\\host -u ci -p ${v} cmd`, `psexec \\\\host -u ci -p ${R} cmd`],
    [
      "a Terraform variable's default",
      `variable "db_password" {\n  type    = string\n  default = "${v}"\n}`,
      `variable "db_password" {\n  type    = string\n  default = "${R}"\n}`,
    ],
    ["a Vault unseal key", `Unseal Key 1: ${v}${drawer(7)(24)}`, `Unseal Key 1: ${R}`],
    [
      "a key block cut off at its end, then prose",
      `-----BEGIN PRIVATE KEY-----\n${v}${v}\n${v}\n\nThe deploy notes go on.`,
      `${R}\n\nThe deploy notes go on.`,
    ],
    ["a key block cut off at its start", `${v}${v}\n${v}==\n-----END PRIVATE KEY-----\nnext`, `${R}\nnext`],
  ])("%s", (_shape, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })
})

describe("redaction: what is never a secret stays", () => {
  test.each(CLEAN_CORPUS.map(([name, text]) => [name, text] as const))("clean corpus: %s", (_name, text) => {
    expect(changedLines(text, redactSecrets(text))).toBe(0)
  })

  test.each([
    ["a secret file's path", "MYSQL_ROOT_PASSWORD_FILE=/run/secrets/db-password"],
    ["an env() lookup, call left open", "SECRET_KEY = env('SECRET_KEY',"],
    ["process.env", "  password: process.env.DATABASE_PASSWORD,"],
    ["a dependency and its version", '    "pbkdf2-password": "^1.2.1",'],
    ["?key=value in prose", "Pass ?key=value in the query string."],
    ["a regex literal", "export const GITHUB_TOKEN_PATTERN = /gh[pousr]_[A-Za-z0-9]{36}/"],
    ["a fake-looking password", 'password = "somefakekey"'],
    ["punctuation alone behind a password's name", 'password = ",.:-¨@*¿?!"'],
    ["a separator line after a secret's name", "SECRET_KEY = ----------"],
    ["a Terraform reference", `password = "${"$"}{aws_db_instance.default.password}"`],
    ["a GitHub Actions secret", `password: ${"$"}{{ secrets.GITHUB_TOKEN }}`],
    ["a Helm template", 'password: "{{ .Values.db.password }}"'],
    ["os.environ", 'key = os.environ["API_KEY"]'],
    ["<your-key>", "OPENAI_API_KEY=<your-openai-key>"],
    ["changeme", "SECRET_KEY=changeme"],
    ["an ellipsis", 'token: "..."'],
    ["the name of a secret", "secretKeyRef: {name: db-credentials, key: password}"],
    ["an env var's name", "tokenEnvVar: GITHUB_TOKEN"],
    ["a same-word local default", "postgres://postgres:postgres@localhost:5432/app"],
    ["a file path's name (no personal access token)", `file_path = "${drawer(6)(20)}"`],
    ["curl's -k (no key)", `curl -k https://x.test/${drawer(6)(20)}`],
    ["a Terraform variable's reference default", 'variable "db_password" {\n  default = var.fallback\n}'],
    [
      "prose that names the key markers",
      "`-----END PRIVATE KEY-----` repeated, no BEGIN; then `-----BEGIN PRIVATE KEY-----` alone",
    ],
    [
      "a template's interpolation after a token prefix",
      `return \`// deploy token: ghp_${"$"}{randomToken(random, 36)}\``,
    ],
    ["a value that ends in its own name", 'pub const SN_id_None_KeyMeshing = "id-Gost28147-89-None-KeyMeshing"'],
    [
      "a Kubernetes env var from a secret",
      "- name: DB_PASSWORD\n  valueFrom:\n    secretKeyRef: {name: db, key: password}",
    ],
  ])("%s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

test("a password of punctuation with one letter or digit in it still goes", () => {
  expect(redactSecrets('password = ",.:-¨@*¿?!7"')).toBe(`password = "${REDACTED}"`)
  expect(redactSecrets("DB_PASSWORD=#!%^&*()_+q")).toBe(`DB_PASSWORD=${REDACTED}`)
})

describe("redaction: an assignment inside a quoted value, and a flag's argument in a list", () => {
  const R = REDACTED
  const v = drawer(31)(20)
  const w = `${drawer(32)(8)}-${drawer(33)(6)}`
  test.each([
    ["a quoted value's assignment", `env: "API_KEY=${v}"`, `env: "API_KEY=${R}"`],
    ["a name field's unquoted value", `env: API_KEY=${v}`, `env: API_KEY=${R}`],
    ["--env=", `docker run --env=DB_PASSWORD=${w} app`, `docker run --env=DB_PASSWORD=${R} app`],
    [
      "a command's inner assignment",
      `command: ["sh", "-c", "DB_PASSWORD=${w} ./run"]`,
      `command: ["sh", "-c", "DB_PASSWORD=${R} ./run"]`,
    ],
    ["a flag in an argument list", `args: ["--token", "${v}"]`, `args: ["--token", "${R}"]`],
  ])("%s", (_shape, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test.each([
    ["a quoted value's setting", 'environment:\n  - "LOG_LEVEL=info"'],
    ["a quoted value's reference", `env: "API_KEY=${"$"}{API_KEY}"`],
    ["a flag's file in a list", 'args: ["--password-file", "/run/secrets/db"]'],
    ["a flag's command substitution in a list", 'args: ["--token", "$(cat /run/secrets/token)"]'],
  ])("kept: %s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe("redaction: literals code compares with or passes where a secret goes, exactly", () => {
  const R = REDACTED
  const v = drawer(31)(20)
  const w = `${drawer(32)(8)}-${drawer(33)(6)}`
  test.each([
    ["==", `if (password == "${v}") {`, `if (password == "${R}") {`],
    ["== in Python", `if secret == '${v}':`, `if secret == '${R}':`],
    ["===, a token that looks random", `if (token === "${v}")`, `if (token === "${R}")`],
    ["!=", `if (db_pass != "${w}")`, `if (db_pass != "${R}")`],
    ["!==", `if (apiKey !== '${v}') throw e`, `if (apiKey !== '${R}') throw e`],
    [
      "an index by a quoted name",
      `if request.headers["X-Api-Key"] == "${v}":`,
      `if request.headers["X-Api-Key"] == "${R}":`,
    ],
    ["a literal before the name", `if ("${w}" == password)`, `if ("${R}" == password)`],
    ["a lookup's result", `if req.Header.Get("X-Api-Key") != "${v}" {`, `if req.Header.Get("X-Api-Key") != "${R}" {`],
    ["equals", `if (password.equals("${w}")) {`, `if (password.equals("${R}")) {`],
    ["equalsIgnoreCase", `pwd.equalsIgnoreCase("${w}")`, `pwd.equalsIgnoreCase("${R}")`],
    ["equals on the literal", `if ("${w}".equals(password)) {`, `if ("${R}".equals(password)) {`],
    ["strcmp", `if (strcmp(password, "${w}") == 0)`, `if (strcmp(password, "${R}") == 0)`],
    ["compare_digest", `hmac.compare_digest(token, "${v}")`, `hmac.compare_digest(token, "${R}")`],
    ["PHP hash_equals", `hash_equals($secret, '${w}')`, `hash_equals($secret, '${R}')`],
    ["a setter", `dataSource.setPassword("${w}");`, `dataSource.setPassword("${R}");`],
    ["a Go setter", `cfg.SetApiKey("${v}")`, `cfg.SetApiKey("${R}")`],
    ["a builder", `Client.builder().apiKey("${v}").build()`, `Client.builder().apiKey("${R}").build()`],
    ["withPassword and a conversion", `.withPassword("${w}".toCharArray())`, `.withPassword("${R}".toCharArray())`],
    ["a Rust builder with Some", `opts.password(Some("${w}"))`, `opts.password(Some("${R}"))`],
    ["a C++ constructor", `std::string secret("${w}");`, `std::string secret("${R}");`],
    ["assign", `secret.assign("${w}", 17);`, `secret.assign("${R}", 17);`],
    ["new Password", `new Password("${w}")`, `new Password("${R}")`],
    ["HTTPBasicAuth", `HTTPBasicAuth("admin", "${w}")`, `HTTPBasicAuth("admin", "${R}")`],
    ["requests' auth pair", `requests.get(url, auth=("admin", "${w}"))`, `requests.get(url, auth=("admin", "${R}"))`],
    ["Guzzle's auth pair", `['auth' => ['admin', '${w}']]`, `['auth' => ['admin', '${R}']]`],
    ["SetBasicAuth", `req.SetBasicAuth("admin", "${w}")`, `req.SetBasicAuth("admin", "${R}")`],
    ["NetworkCredential", `new NetworkCredential("admin", "${w}")`, `new NetworkCredential("admin", "${R}")`],
    [
      "UsernamePasswordCredentials",
      `new UsernamePasswordCredentials("admin", "${w}")`,
      `new UsernamePasswordCredentials("admin", "${R}")`,
    ],
    [
      "PasswordAuthentication",
      `new PasswordAuthentication("u", "${w}".toCharArray())`,
      `new PasswordAuthentication("u", "${R}".toCharArray())`,
    ],
    [
      "DriverManager.getConnection",
      `DriverManager.getConnection(url, "admin", "${w}")`,
      `DriverManager.getConnection(url, "admin", "${R}")`,
    ],
    ["DataSource.getConnection", `ds.getConnection("admin", "${w}")`, `ds.getConnection("admin", "${R}")`],
    ["smtp.login", `smtp.login("me@example.test", "${w}")`, `smtp.login("me@example.test", "${R}")`],
    ["ftp.login", `ftp.login("anonymous", "${w}")`, `ftp.login("anonymous", "${R}")`],
    ["login with a variable user", `client.login(user, "${w}")`, `client.login(user, "${R}")`],
    ["a login whose receiver says nothing", `login_page.login("Admin", "${w}")`, `login_page.login("Admin", "${R}")`],
    [
      "MongoCredential.createCredential",
      `MongoCredential.createCredential("app", "admin", "${w}".toCharArray())`,
      `MongoCredential.createCredential("app", "admin", "${R}".toCharArray())`,
    ],
    [
      "smtp.PlainAuth",
      `smtp.PlainAuth("", "me@example.test", "${w}", "smtp.example.test")`,
      `smtp.PlainAuth("", "me@example.test", "${R}", "smtp.example.test")`,
    ],
    [
      "keyring.set_password",
      `keyring.set_password("svc", "alice", "${w}")`,
      `keyring.set_password("svc", "alice", "${R}")`,
    ],
    [
      "lettre's Credentials::new",
      `Credentials::new("me".to_owned(), "${w}".to_owned())`,
      `Credentials::new("me".to_owned(), "${R}".to_owned())`,
    ],
    [
      "a call assigned to a secret's name",
      `auth = aiohttp.BasicAuth("user", "${w}")`,
      `auth = aiohttp.BasicAuth("user", "${R}")`,
    ],
  ])("%s", (_shape, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test.each([
    ["a key event", 'if (key === "Enter") submit()'],
    ["a key event's member", 'if (event.key == "Escape") close()'],
    ["a token's type", 'if (token.type === "string") return'],
    ["a lexer's token", "if token == 'while':"],
    ["a lexer's token value", 'if (tok.value == "async") parseAsync()'],
    ["an empty password", 'if (password === "") return'],
    ["null", "if (secret == null) throw err"],
    ["another variable", "if (password !== confirmPassword) fail()"],
    ["a typeof check", 'typeof data.password == "string"'],
    ["a default word", 'if password == "password":'],
    ["a lookup's result compared with nothing secret", 'if os.getenv("API_KEY") == "":'],
    ["a getter's name", 'user.getPassword("alice")'],
    ["keyring's lookup", 'keyring.get_password("svc", "user")'],
    ["a secret store's path", 'secret = get_secret("db/creds")'],
    ["a lookup by id", 'value = read_secret("prod-db")'],
    ["a fetch", "token = fetch_token(url)"],
    ["an env lookup", 'key = os.getenv("API_KEY")'],
    ["i18n", 'label = t("password")'],
    ["a translated prompt", 'translate("Enter password")'],
    ["an assertion", "assertThat(password).isEqualTo(expected)"],
    ["a setter of a variable", "ds.setPassword(password);"],
    ["a setter of a request field", "ds.setPassword(req.body.password);"],
    ["a setter of an env lookup", 'setApiKey(System.getenv("API_KEY"))'],
    ["a setter that is no secret's", "setPasswordVisible(true)"],
    ["a hint", '.setPasswordHint("Use 12 characters")'],
    ["keyring's setter of a variable", 'keyring.set_password("svc", "alice", password)'],
    ["a login without arguments", "ftp.login()"],
    ["a login with a variable password", 'login("admin", password)'],
    ["a pair of variables", "requests.get(url, auth=(user, password))"],
    ["a credential call of variables", "HTTPBasicAuth(username, password)"],
    ["auth methods listed", 'auth: ["password", "publickey"]'],
    ["a lexer's token builder", 'expect(lexer.token("if")).toBe(true)'],
    ["a Jenkins credentials lookup", "AWS_KEY = credentials('aws-deploy-key')"],
  ])("kept: %s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe("redaction: YAML block scalars after a secret's name", () => {
  const R = REDACTED
  const v = drawer(35)(20)
  const w = `${drawer(36)(8)}-${drawer(37)(6)}`
  test.each([
    ["a block scalar", `password: |\n  ${w}\nhost: db`, `password: |\n  ${R}\nhost: db`],
    ["a folded block scalar", `client_secret: >-\n  ${v}\n`, `client_secret: >-\n  ${R}\n`],
    ["a block scalar over two lines", `- token: |2\n    ${v}\n    ${w}\n`, `- token: |2\n    ${R}\n    ${R}\n`],
    [
      "a header with a comment",
      `smtp:\n  pass: |+ # rotated\n    ${w}\n\n  port: 25`,
      `smtp:\n  pass: |+ # rotated\n    ${R}\n\n  port: 25`,
    ],
    ["a quoted key", `"apiToken": |\n  ${v}`, `"apiToken": |\n  ${R}`],
  ])("%s", (_shape, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test.each([
    ["a block scalar of prose", "password: |\n  correct horse battery staple"],
    ["a block scalar of JSON", `credentials: |\n  {"user": "app", "password": "${"$"}{DB_PASSWORD}"}`],
    ["an empty block scalar", "password: |\nhost: db"],
    ["a pipe in a shell command", "grep Password: | cut -d' ' -f3 > passwords"],
    ["a table row", "| Password: |\n|           |"],
    ["a script block", 'script: |\n  echo "$CI_JOB_TOKEN" | docker login -u ci --password-stdin\n  make build'],
    ["a template in a block", `token: >-\n  ${"$"}{{ secrets.DEPLOY_TOKEN }}`],
    [
      "a public key block under a bare key",
      "key: |\n  -----BEGIN PGP PUBLIC KEY BLOCK-----\n  mQINBFit2ioBEADhWpZ8/wvZ6hUTiXOwQHXMAlaFHcPH9hAtr4F1y2\n  -----END PGP PUBLIC KEY BLOCK-----",
    ],
    ["a list of names under a name's key", "secret_names: |\n  db-password\n  api-key"],
  ])("kept: %s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe("redaction: values in code that are secrets, and that are not", () => {
  const R = REDACTED
  const letters = drawer(34)
  const appPassword = [
    letters(4, "bcdfghjklmnpqrstvwxz"),
    ...[1, 2, 3].map(() => letters(4, "abcdefghijklmnopqrstuvwxyz")),
  ].join(" ")
  test.each([
    [
      "a Google app password, blanks and all",
      `new NetworkCredential("me@example.test", "${appPassword}")`,
      `new NetworkCredential("me@example.test", "${R}")`,
    ],
    ["a Google app password assigned", `EMAIL_HOST_PASSWORD = "${appPassword}"`, `EMAIL_HOST_PASSWORD = "${R}"`],
  ])("%s", (_shape, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test.each([
    ["a value that says it is invalid", "return secret == 'invalid'"],
    ["four words under a password's name", 'password = "pass word goes here"'],
    ["fetch's credentials mode", 'fetch(url, { credentials: "include" })'],
    ["fetch's credentials modes as a type", 'type RequestCredentials = "include" | "omit" | "same-origin"'],
  ])("kept: %s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe("redaction: a value never crosses a line break", () => {
  test.each([
    ["dotenv", "GITHUB_API_KEY=\nNEXT_SETTING=abc123def456ghi"],
    ["dotenv, trailing blanks", "GITHUB_API_KEY=   \nNEXT_SETTING=abc123def456ghi"],
    ["YAML", "password:\n  nested: abc123def456ghi"],
    ["INI", "password =\nhost = abc123def456ghi"],
    ["quoted, unclosed", 'token: "\nabc123def456ghi"'],
    ["XML element left open", "<password>\nabc123def456ghi"],
    ["a flag at the line's end", "deploy --api-key\nabc123def456ghi"],
  ])("%s: the next line is untouched", (_shape, input) => {
    const next = input.slice(input.indexOf("\n") + 1)
    expect(redactSecrets(input).split("\n").slice(1).join("\n")).toBe(next)
  })
})

describe("redaction: one long text gives what its parts give", () => {
  // Above a few kilobytes, rule keywords are looked up in a 4-gram bitmap instead of searched one by one.
  test("the generated corpora, joined into one text, come out as the samples do one by one", () => {
    const samples = [...PROMISED, ...VENDORS, ...ASSIGNMENTS].map((sample) => sample.text)
    const joined = samples.join("\n\n")
    expect(joined.length).toBeGreaterThan(100_000)
    expect(redactSecrets(joined)).toBe(samples.map((text) => redactSecrets(text)).join("\n\n"))
  })

  test("every keyword is printable ASCII: the bitmaps hold UTF-8 bytes and are asked with character codes", () => {
    for (const rule of SECRET_RULES) for (const keyword of rule.keywords) expect(keyword).toMatch(/^[\x20-\x7e]+$/)
  })

  test("a rule's condition is tested exactly: words that only look like `machine` to the bitmap make no .netrc", () => {
    const v = drawer(9)(16)
    const filler = "const total = items.reduce((sum, item) => sum + item.price, 0)\n".repeat(90)
    // every 4-gram of "machine" is in the text, "machine" is not
    const lookalike = `${filler}mach achi chin hine\npassword ${v}\n`
    expect(lookalike.length).toBeGreaterThan(4096)
    expect(redactSecrets(lookalike)).toBe(lookalike)
    expect(redactSecrets(`machine example.test\nlogin me\npassword ${v}\n`)).toBe(
      `machine example.test\nlogin me\npassword ${REDACTED}\n`,
    )
  })
})

describe("redaction: every spelling a rule matches gets past its keyword test", () => {
  const v = drawer(10)(16)
  test.each([
    ["curl -u after a tab", `curl\t-u admin:${v} https://x.test`, `curl\t-u admin:${REDACTED} https://x.test`],
    [
      "SQL Password in title case",
      `CREATE USER bob WITH Password '${v}';`,
      `CREATE USER bob WITH Password '${REDACTED}';`,
    ],
    [
      "SQL PASSWORD after two blanks",
      `ALTER USER bob WITH PASSWORD  '${v}';`,
      `ALTER USER bob WITH PASSWORD  '${REDACTED}';`,
    ],
    ["netrc default entry", `default login me password ${v}`, `default login me password ${REDACTED}`],
  ])("%s", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })
})

// ── shapes found in the public scanners' rule tests, written anew with random bodies ──

describe("redaction: vendor formats and names the public scanners' tests hold", () => {
  const draw = drawer(2022)
  const { alnum, hex, lowerAlnum, upperAlnum, b64 } = ALPHABETS
  const uuid = () => `${draw(8, hex)}-${draw(4, hex)}-${draw(4, hex)}-${draw(4, hex)}-${draw(12, hex)}`
  // [label, text, the part that must go]
  const cases: Array<[string, string, string]> = [
    ["a Tailscale key written as letter runs", "", `tskey-api-${"A".repeat(12)}-${"B".repeat(24)}`],
    [
      "a Notion token with the alphabet in it",
      "",
      `ntn_${draw(11, "0123456789")}aBcDeFgHiJkLmNoPqRsT${draw(15, alnum)}`,
    ],
    ["a Grafana service account token", "", `glsa_abcdefghijklmnopqrstuvwxyz${draw(6, alnum)}_${draw(8, hex)}`],
    ["a Slack token of digit groups", "token=", `xo${"xa-"}${draw(11, "0123456789")}-${draw(13, "0123456789")}`],
    [
      "a SendGrid key of 66 characters",
      "",
      `SG.${draw(22, lowerAlnum)}_${draw(20, lowerAlnum)}=${draw(22, lowerAlnum)}`,
    ],
    ["a PlanetScale token holding =", "", `pscale_tkn_${draw(10, lowerAlnum)}=${draw(21, lowerAlnum)}`],
    ["an Adobe client secret", "", `p8e-${draw(32, alnum)}`],
    ["an Airtable token", "", `pat${draw(14, alnum)}.${draw(64, hex)}`],
    ["an Alibaba key id", "", `LTAI${draw(20, alnum)}`],
    ["a Cloudflare origin CA key", "", `v1.0-${draw(24, hex)}-${draw(146, hex)}`],
    ["a Dynatrace token", "", `dt0c01.${draw(24, upperAlnum)}.${draw(64, alnum)}`],
    ["a Mailchimp key", "", `${draw(32, hex)}-us${draw(2, "0123456789")}`],
    ["a New Relic license key", "", `${draw(36, hex)}NRAL`],
    ["an OpenShift token", "", `sha256~${draw(43, alnum)}`],
    ["a RubyGems key", "", `rubygems_${draw(48, hex)}`],
    ["a Pulumi token", "", `pul-${draw(40, hex)}`],
    [
      "a Teams webhook",
      "https://acme.webhook.office.com/webhookb2/",
      `${uuid()}@${uuid()}/IncomingWebhook/${draw(32, hex)}/${uuid()}`,
    ],
    ["a Mapbox public token", "", `pk.${draw(60, lowerAlnum)}.${draw(22, lowerAlnum)}`],
    ["a name with a trailing digit", '"token2": "', draw(32, alnum)],
    ["a run-together pwd name", "ACRPWD=", draw(20, alnum)],
    ["a login-style key with a random value", 'SONAR_LOGIN = "', draw(40, hex)],
    ["a lower-case kind: secret", "apiVersion: v1\nkind: secret\ndata:\n\textra: ", draw(24, b64)],
  ]
  test.each(cases)("%s", (_label, lead, secret) => {
    const out = redactSecrets(`${lead}${secret}${lead.endsWith('"') ? '"' : ""}`)
    expect(out).not.toContain(secret)
    expect(out).toContain(REDACTED)
  })

  test.each([
    ["a primary key's value", `primaryKey=${draw(30, alnum)}`],
    ["a key-event name", `key_down_event=${draw(30, alnum)}`],
    ["a CSRF token in a page", `csrf-token=${draw(60, b64)}==`],
    ["a file name with an .ico- hash", `media/video_box.ico-${draw(32, hex)}.png`],
    ["a login that is a user name", "login: deploy-bot"],
    ["an empty Secret value", "apiVersion: v1\nkind: Secret\ndata:\n  htpasswd: ''"],
    ["a templated Secret value", "apiVersion: v1\nkind: Secret\ndata:\n  htpasswd: {{ htpasswd }}"],
  ])("kept: %s", (_label, text) => {
    expect(redactSecrets(text)).toBe(text)
  })
})

describe("redaction: classes the public scanners' tests showed, written anew with random bodies", () => {
  const draw = drawer(2026)
  const { alnum, hex, lowerAlnum, b64url } = ALPHABETS
  const uuid = () => `${draw(8, hex)}-${draw(4, hex)}-${draw(4, hex)}-${draw(4, hex)}-${draw(12, hex)}`
  const b64 = (text: string) => btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")
  const header = b64(JSON.stringify({ alg: "HS256", typ: "JWT" }))
  const claims = b64(JSON.stringify({ sub: draw(10, "0123456789"), name: draw(8, alnum) }))
  const key = `sk_${"live_"}${draw(24)}`
  const block = draw(16, hex)
  const yandex = { api: `AQVN${draw(36)}`, access: `YC${draw(38)}`, iam: `t1.${draw(20)}.${draw(86, b64url)}` }
  const lob = { secret: `test_${draw(35, hex)}`, pub: `live_pub_${draw(31, hex)}` }
  const braced = `{${draw(14)}}`
  const userToken = draw(40, hex)
  const withEquals = `${draw(20)}==${draw(8)}`
  const templateLike = `q{{${draw(4)}}e)r\${${draw(3)}]y(u[i>-_$#${draw(6)}}}`
  // [label, text, the part that must go]
  test.each([
    ["an age key written as one repeated letter", `AGE_KEY=AGE-SECRET-KEY-1${"Q".repeat(58)}`, "Q".repeat(58)],
    ["an AWS key id written as one repeated letter", `id: AKIA${"Z".repeat(16)}`, `AKIA${"Z".repeat(16)}`],
    ["a Stripe key of one repeated letter", `sk_${"live_"}${"A".repeat(24)}`, "A".repeat(24)],
    ["a Tailscale key after an underscore", `MY_tskey-api-${draw(12)}-${draw(24)}`, "tskey-api-"],
    ["a SendGrid key glued to a word", `oopsSG.${draw(22, b64url)}.${draw(43, b64url)}`, "SG."],
    ["a Yandex API key", yandex.api, yandex.api],
    ["a Yandex static access key", yandex.access, yandex.access],
    ["a Yandex IAM token", yandex.iam, yandex.iam],
    ["a Plaid access token", `access-production-${uuid()}`, "access-production-"],
    ["a Lob secret key", lob.secret, lob.secret],
    ["a Lob publishable key", lob.pub, lob.pub],
    ["a Beamer key", `b_${draw(44, lowerAlnum)}`, "b_"],
    ["a New Relic user key in lower case", `NRAK-${draw(27, lowerAlnum)}`, "NRAK-"],
    ["a JWT without its signature", `token ${header}.${claims} end`, claims],
    ["an API key as curl's user, with no password", `curl -u "${key}:" https://api.test`, key],
    ["a password in braces, the user quoted apart", `curl --user "{${uuid()}}":"${braced}" -X POST`, braced],
    ["a token as a URL's user before x-oauth-basic", `https://${userToken}:x-oauth-basic@git.test/a`, userToken],
    ["a value holding = amid other text", `{"settings": "API_TOKEN=${withEquals}\\nNEXT=1"}`, withEquals],
    ["punctuation that only looks like a template", `token = "${templateLike}"`, templateLike],
  ])("%s", (_label, text, secret) => {
    const out = redactSecrets(text)
    expect(out).toContain(REDACTED)
    expect(out).not.toContain(secret)
  })

  test.each([
    [
      "a masked Slack token",
      `"token": "xo${"xp-"}${draw(12, "0123456789")}-${draw(12, "0123456789")}-${"#".repeat(20)}"`,
    ],
    ["a masked GitHub token", `gh${"p_"}${draw(8)}${"*".repeat(28)}`],
    ["a Stripe publishable key", `pk_${"live_"}${draw(24)}`],
    ["a GitLab token of a length its kind does not have", `glimt-${draw(23, alnum)} and glptt-${draw(20, hex)}`],
    ["an Anthropic prefix on a value of another length", `sk-ant-api03-${draw(40)}AA`],
    ["a Groq prefix on a value of another length", `gsk_${draw(56)}`],
    ["a Sentry user prefix on 65 hex digits", `sntryu_${draw(65, hex)}`],
    ["a Google prefix on a value that runs on", `AIza${draw(43)}`],
    ["a Discord-shaped value whose first part is no user id", `P${draw(23)}.${draw(6)}.${draw(27)}`],
    ["a SendGrid prefix with two dots in a row", `SG.${draw(22)}..${draw(43)}`],
    ["a Tailscale prefix inside a word", `abctskey-api-${draw(12)}-${draw(24)}`],
    ["a key's hash", `issuerKeyHash=${draw(30)}`],
    ["base64 of words under a key of unknown kind", `ANY_KEY = ${btoa("plain words of a label here")}`],
    ["a value of one block written twice", `access_key = "${block}${block}"`],
    ["a Secret's data value that encodes a default", `kind: Secret\ndata:\n  extra: ${btoa("bar\n")}`],
    ["two words that start with ey around a dot", "eyeballing.eyelashes-something"],
    ["a format field", 'password = "{password}"'],
  ])("kept: %s", (_label, text) => {
    expect(redactSecrets(text)).toBe(text)
  })
})

describe("redaction: passwords of further commands, each only where its command takes one", () => {
  const R = REDACTED
  const v = drawer(31)(18)
  const w = drawer(32)(22)
  test.each([
    ["sqlcmd -P", `sqlcmd -S db -U sa -P ${v} -Q "SELECT 1"`, `sqlcmd -S db -U sa -P ${R} -Q "SELECT 1"`],
    ["sqlcmd -P, quoted", `sqlcmd -S db -U sa -P "${v}"`, `sqlcmd -S db -U sa -P "${R}"`],
    ["bcp -P", `bcp dbo.t out t.dat -S db -U sa -P ${v} -c`, `bcp dbo.t out t.dat -S db -U sa -P ${R} -c`],
    [
      "keytool -storepass and -keypass",
      `keytool -genkeypair -keystore k.jks -storepass ${v} -keypass ${w}`,
      `keytool -genkeypair -keystore k.jks -storepass ${R} -keypass ${R}`,
    ],
    [
      "keytool -srcstorepass and -deststorepass",
      `keytool -importkeystore -srcstorepass ${v} -deststorepass ${w} -srckeypass ${v} -destkeypass ${w}`,
      `keytool -importkeystore -srcstorepass ${R} -deststorepass ${R} -srckeypass ${R} -destkeypass ${R}`,
    ],
    [
      "keytool -new",
      `keytool -storepasswd -new ${v} -keystore k.jks`,
      `keytool -storepasswd -new ${R} -keystore k.jks`,
    ],
    ["jarsigner -storepass", `jarsigner -storepass ${v} app.jar alias`, `jarsigner -storepass ${R} app.jar alias`],
    ["zip -P", `zip -P ${v} a.zip f`, `zip -P ${R} a.zip f`],
    ["zip --password", `zip --password ${v} a.zip f`, `zip --password ${R} a.zip f`],
    ["unzip -P", `unzip -P ${v} a.zip`, `unzip -P ${R} a.zip`],
    ["7z -p, glued", `7z a -p${v} a.7z f`, `7z a -p${R} a.7z f`],
    ["ssh-keygen -N", `ssh-keygen -t ed25519 -N "${v}" -f k`, `ssh-keygen -t ed25519 -N "${R}" -f k`],
    ["ssh-keygen -P and -N", `ssh-keygen -p -P "${v}" -N "${w}" -f k`, `ssh-keygen -p -P "${R}" -N "${R}" -f k`],
    ["a passphrase with blanks", `ssh-keygen -N "${v} horse battery" -f k`, `ssh-keygen -N "${R}" -f k`],
    ["htpasswd -b", `htpasswd -bc .htpasswd admin ${v}`, `htpasswd -bc .htpasswd admin ${R}`],
    ["htpasswd -nb", `htpasswd -nbB admin '${v}'`, `htpasswd -nbB admin '${R}'`],
    ["htpasswd -bC with its cost", `htpasswd -bBC 12 .htpasswd admin ${v}`, `htpasswd -bBC 12 .htpasswd admin ${R}`],
    [
      "htpasswd as a container's entrypoint",
      `docker run --rm --entrypoint htpasswd httpd:2 -Bbn registry ${v} > auth/htpasswd`,
      `docker run --rm --entrypoint htpasswd httpd:2 -Bbn registry ${R} > auth/htpasswd`,
    ],
    ["net user", `net user bob ${v} /add`, `net user bob ${R} /add`],
    ["net user /add first", `net user /add bob ${v}`, `net user /add bob ${R}`],
    ["net user after a prompt", `C:\\> net user bob "${v}"`, `C:\\> net user bob "${R}"`],
    ["gh secret set --body", `gh secret set API_KEY --body "${v}"`, `gh secret set API_KEY --body "${R}"`],
    ["gh secret set -b", `gh secret set API_KEY -b ${v}`, `gh secret set API_KEY -b ${R}`],
    [
      "echo into --password-stdin",
      `echo "${v}" | docker login -u me --password-stdin`,
      `echo "${R}" | docker login -u me --password-stdin`,
    ],
    [
      "printf into --password-stdin",
      `printf '%s' '${v}' | helm registry login r.test -u me --password-stdin`,
      `printf '%s' '${R}' | helm registry login r.test -u me --password-stdin`,
    ],
    [
      "a here-string after the registry",
      `oras login -u me --password-stdin localhost:5000 <<< "${v}"`,
      `oras login -u me --password-stdin localhost:5000 <<< "${R}"`,
    ],
    ["mongosh -p", `mongosh mongodb://db.test -u admin -p ${v}`, `mongosh mongodb://db.test -u admin -p ${R}`],
    [
      "a here-string into --password-stdin",
      `oras login r.test -u me --password-stdin <<< "${v}"`,
      `oras login r.test -u me --password-stdin <<< "${R}"`,
    ],
    [
      "mysql after a shell prompt",
      `root@c0ffee:/# mysql -u root -p${v} app`,
      `root@c0ffee:/# mysql -u root -p${R} app`,
    ],
    [
      "a command continued over lines",
      `sqlcmd -S db \\\n  -U sa \\\n  -P ${v}`,
      `sqlcmd -S db \\\n  -U sa \\\n  -P ${R}`,
    ],
    [
      "flags at the start of continued lines",
      `keytool -genkeypair \\\n-storepass ${v} \\\n-keypass ${w}`,
      `keytool -genkeypair \\\n-storepass ${R} \\\n-keypass ${R}`,
    ],
    [
      "a login continued with PowerShell's backtick",
      `docker login \`\n  -u me \`\n  -p ${v} r.test`,
      `docker login \`\n  -u me \`\n  -p ${R} r.test`,
    ],
    ["sqlcmd -P glued", `sqlcmd -S db -U sa -P${v}`, `sqlcmd -S db -U sa -P${R}`],
    [
      "sqlcmd in a container, by its path",
      `docker exec -it sql1 /opt/mssql-tools18/bin/sqlcmd -S localhost -U sa -P "${v}" -C`,
      `docker exec -it sql1 /opt/mssql-tools18/bin/sqlcmd -S localhost -U sa -P "${R}" -C`,
    ],
    [
      "mysql in a Compose service",
      `docker compose exec -u root db mysql -u root -p${v} app`,
      `docker compose exec -u root db mysql -u root -p${R} app`,
    ],
    [
      "mysql in a pod",
      `kubectl exec -it mysql-0 -c mysql -- mysql -uroot -p${v}`,
      `kubectl exec -it mysql-0 -c mysql -- mysql -uroot -p${R}`,
    ],
    [
      "apksigner --ks-pass pass:",
      `apksigner sign --ks-pass pass:${v} app.apk`,
      `apksigner sign --ks-pass pass:${R} app.apk`,
    ],
  ])("%s", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test.each([
    ["cp -P", "cp -P src dst"],
    ["grep -P", "grep -P '\\d+' file.txt"],
    ["xargs -P", "xargs -P 4 -n 1 gzip"],
    ["find -P", "find -P /srv -name '*.log'"],
    ["ls -N", "ls -N --color=never /etc"],
    ["mkdir -p", "mkdir -p /var/lib/app/data"],
    ["docker run -p", "docker run -p 8080:80 nginx:1.27"],
    ["git checkout -b", "git checkout -b feature/login-form"],
    ["mysql -P is a port", "mysql -h db -P 3306 -u app app"],
    ["scp -P is a port", "scp -P 2222 build.tar deploy@host:/srv"],
    ["zip -r", "zip -r a.zip dir"],
    ["zip -P from a variable", 'zip -P "$ZIP_PASSWORD" a.zip dir'],
    ["7z -p alone prompts", "7z a -p backup.7z data/"],
    ["ssh-keygen with an empty passphrase", 'ssh-keygen -t ed25519 -N "" -f k'],
    ["ssh-keygen -b is the key size", 'ssh-keygen -t rsa -b 4096 -C "ci@example.test" -N "" -f id_rsa'],
    ["ssh-keygen from variables", 'ssh-keygen -p -f k -P "$OLD_PASSPHRASE" -N "$NEW_PASSPHRASE"'],
    ["keytool -storepass:env", "keytool -list -keystore k.jks -storepass:env STOREPASS"],
    ["keytool -storepass:file", "keytool -list -keystore k.jks -storepass:file pass.txt"],
    ["keytool -storepass changeit", "keytool -list -keystore cacerts -storepass changeit"],
    ["openssl -new", "openssl req -new -key server.key -out server.csr"],
    ["sqlcmd -P from a variable", 'sqlcmd -S db -U sa -P "$SA_PASSWORD" -Q "SELECT 1"'],
    ["sqlcmd -P from a Windows variable", "sqlcmd -S db -U sa -P %SA_PASSWORD%"],
    ["bcp with a trusted connection", "bcp dbo.t in t.dat -S db -T -c"],
    ["htpasswd without -b prompts", "htpasswd -c .htpasswd admin"],
    ["htpasswd -b from a variable", 'htpasswd -bc .htpasswd admin "$ADMIN_PASSWORD"'],
    ["net user * prompts", "net user bob *"],
    ["net user * /add prompts", "net user bob * /add"],
    ["net user /delete", "net user bob /delete"],
    ["net user from variables", "net user %NEW_USER% %NEW_PASSWORD% /add"],
    [".NET user in prose", "The ASP.NET user manager keeps accounts in the identity store."],
    ["gh secret set from a variable", 'gh secret set API_KEY --body "$API_KEY"'],
    ["gh secret set from a file", "gh secret set API_KEY < key.txt"],
    ["gh pr create --body", 'gh pr create --title "Fix login" --body "Closes the login bug for users"'],
    ["gh issue create -b", 'gh issue create -t Crash -b "Steps2reproduce the crash"'],
    ["echo $TOKEN into --password-stdin", "echo $TOKEN | docker login --password-stdin"],
    [
      "echo a secret reference",
      `echo "${"$"}{{ secrets.GITHUB_TOKEN }}" | docker login ghcr.io -u me --password-stdin`,
    ],
    ["a command into --password-stdin", "aws ecr get-login-password | docker login -u AWS --password-stdin 1.dkr.test"],
    ["printf a variable", "printf '%s' \"$CR_PAT\" | podman login -u me --password-stdin quay.test"],
    ["echo into another command", "echo build2024done | tee build.log"],
    ["a flag on the next line, the command not continued", `docker login registry.test\n-p ${v} is no flag here`],
    ["a placeholder password", "keytool -genkeypair -keystore store.keys -storepass <passwd> -keypass <passwd>"],
    ["a port in a container", "docker exec -it web ssh -p 2222 deploy@host"],
    ["mongosh -p alone prompts", "mongosh mongodb://db.test -u admin -p --authenticationDatabase admin"],
  ])("kept: %s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe("redaction: session cookies go, other cookies and attributes stay", () => {
  const R = REDACTED
  const draw = drawer(33)
  const { hex, b64url } = ALPHABETS
  const id = draw(32, hex)
  const sid = draw(26, "abcdefghijklmnopqrstuvwxyz0123456789")
  const token = draw(43, b64url)
  test.each([
    ["Cookie header", `Cookie: theme=dark; sessionid=${id}; lang=en`, `Cookie: theme=dark; sessionid=${R}; lang=en`],
    [
      "Set-Cookie with attributes",
      `Set-Cookie: PHPSESSID=${sid}; Path=/; Secure; HttpOnly; SameSite=Lax`,
      `Set-Cookie: PHPSESSID=${R}; Path=/; Secure; HttpOnly; SameSite=Lax`,
    ],
    [
      "curl -v output",
      `< set-cookie: JSESSIONID=${id}.node1; Path=/app; Max-Age=3600\n> Cookie: _ga=GA1.2.1234567890.1700000000; ASP.NET_SessionId=${sid}`,
      `< set-cookie: JSESSIONID=${R}; Path=/app; Max-Age=3600\n> Cookie: _ga=GA1.2.1234567890.1700000000; ASP.NET_SessionId=${R}`,
    ],
    [
      "a folded Set-Cookie, past an expiry date",
      `set-cookie: a=b; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, laravel_session=${token}; HttpOnly`,
      `set-cookie: a=b; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/, laravel_session=${R}; HttpOnly`,
    ],
    [
      "curl -H, the second header",
      `curl -H "Cookie: a=b" -H "Cookie: user_session=${token}" https://x.test`,
      `curl -H "Cookie: a=b" -H "Cookie: user_session=${R}" https://x.test`,
    ],
    ["curl -b", `curl -b "connect.sid=s%3A${token}" https://x.test`, `curl -b "connect.sid=${R}" https://x.test`],
    ["curl --cookie", `curl --cookie _gh_sess=${token} https://x.test`, `curl --cookie _gh_sess=${R} https://x.test`],
    [
      "an authorization cookie, an author's stays",
      `Cookie: author=${id}; Authorization=${token}`,
      `Cookie: author=${id}; Authorization=${R}`,
    ],
    [
      "document.cookie",
      `document.cookie = "remember_token=${id}; path=/; max-age=86400"`,
      `document.cookie = "remember_token=${R}; path=/; max-age=86400"`,
    ],
    ["a JSON header", `{"Cookie": "sid=${token}; lang=en"}`, `{"Cookie": "sid=${R}; lang=en"}`],
    [
      "a call's header",
      `res.setHeader('Set-Cookie', 'jwt_session=${id}; Path=/')`,
      `res.setHeader('Set-Cookie', 'jwt_session=${R}; Path=/')`,
    ],
    [
      "a cookie object",
      `{"name": "sessionid", "value": "${id}", "domain": ".x.test"}`,
      `{"name": "sessionid", "value": "${R}", "domain": ".x.test"}`,
    ],
    [
      "a cookie object over two lines",
      `{\n  "name": "__Host-session",\n  "value": "${token}",\n  "path": "/"\n}`,
      `{\n  "name": "__Host-session",\n  "value": "${R}",\n  "path": "/"\n}`,
    ],
    [
      "a HAR file's cookie header",
      `{"name": "cookie", "value": "theme=dark; sessionid=${id}"}`,
      `{"name": "cookie", "value": "theme=dark; sessionid=${R}"}`,
    ],
    [
      "a cookie set with literal arguments",
      `res.cookie('sid', '${token}', { httpOnly: true })`,
      `res.cookie('sid', '${R}', { httpOnly: true })`,
    ],
    [
      "PHP's setcookie",
      `setcookie("PHPSESSID", "${sid}", time() + 3600);`,
      `setcookie("PHPSESSID", "${R}", time() + 3600);`,
    ],
    [
      "a cookie jar's set",
      `s.cookies.set('sessionid', '${id}', domain='x.test')`,
      `s.cookies.set('sessionid', '${R}', domain='x.test')`,
    ],
    [
      "a dictionary of cookies",
      `requests.get(url, cookies={"theme": "dark", "sessionid": "${id}"})`,
      `requests.get(url, cookies={"theme": "dark", "sessionid": "${R}"})`,
    ],
    [
      "a request logged as bytes",
      `send: b'GET / HTTP/1.1\\r\\nCookie: sessionid=${id}\\r\\nHost: x.test\\r\\n'`,
      `send: b'GET / HTTP/1.1\\r\\nCookie: sessionid=${R}\\r\\nHost: x.test\\r\\n'`,
    ],
    [
      "a cookie jar",
      `# Netscape HTTP Cookie File\n.x.test\tTRUE\t/\tTRUE\t1798761600\tsessionid\t${id}\n#HttpOnly_x.test\tFALSE\t/\tFALSE\t0\t_gh_sess\t${token}\n.x.test\tTRUE\t/\tFALSE\t1798761600\t_ga\tGA1.2.1234567890.1700000000`,
      `# Netscape HTTP Cookie File\n.x.test\tTRUE\t/\tTRUE\t1798761600\tsessionid\t${R}\n#HttpOnly_x.test\tFALSE\t/\tFALSE\t0\t_gh_sess\t${R}\n.x.test\tTRUE\t/\tFALSE\t1798761600\t_ga\tGA1.2.1234567890.1700000000`,
    ],
  ])("%s", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test.each([
    ["no session cookie", "Cookie: theme=dark; lang=en"],
    ["a session cleared", "Set-Cookie: session=; Max-Age=0"],
    ["a session deleted", "Set-Cookie: sid=deleted; Expires=Thu, 01 Jan 1970 00:00:00 GMT; Path=/"],
    ["an empty quoted session", 'Set-Cookie: sessionid=""; expires=Thu, 01 Jan 1970 00:00:00 GMT; Max-Age=0; Path=/'],
    [
      "analytics ids",
      "Cookie: _ga=GA1.2.1234567890.1700000000; _gid=GA1.2.987654321.1700000000; _fbp=fb.1.1700000000.42",
    ],
    ["a CSRF token", `Cookie: XSRF-TOKEN=${token}; theme=dark`],
    ["Django's CSRF cookie", `Cookie: csrftoken=${token}; theme=dark`],
    [
      "analytics cookies with session in their names",
      `Cookie: _hjSessionUser_123=${token}; _hjSession_123=${id}; _uetsid=${id}`,
    ],
    [
      "a cookie set from a variable",
      'res.cookie("sid", token, { httpOnly: true }); resp.set_cookie("session_id", sid)',
    ],
    ["a preference set with literal arguments", `res.cookie('theme', '${token}')`],
    ["a dictionary of other cookies", `cookies = {"theme": "dark", "lang": "${token}"}`],
    ["a load balancer's cookie", `Set-Cookie: AWSALB=${token}; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Path=/`],
    [
      "a signed cookie of another name",
      "Set-Cookie: user=s%3Atobi.K20xcwmDS2Pb1rsD95o5Jm5SqWs1KteqdnynnB7jkTE; Path=/",
    ],
    ["a file for curl -b", "curl -b cookies.txt -c cookies.txt https://x.test"],
    [
      "session options",
      "app.use(session({ secret: process.env.SESSION_SECRET, cookie: { secure: true, maxAge: 86400 } }))",
    ],
    ["a cookie read in code", "const cookie = req.headers.cookie || ''"],
    ["a Go cookie", 'cookie, err := r.Cookie("session_id")'],
    ["a session id from a variable", `document.cookie = \`session=${"$"}{sessionId}; path=/\``],
    ["a preference in document.cookie", 'document.cookie = "theme=dark; path=/; max-age=31536000"'],
    ["a cookie object of another name", `{"name": "theme", "value": "${token}"}`],
    ["a jar line of another name", ".x.test\tTRUE\t/\tFALSE\t1798761600\tlang\ten-US"],
  ])("kept: %s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe("redaction: Authorization parameter lists lose their secret parameters only", () => {
  const R = REDACTED
  const draw = drawer(34)
  const { hex, b64 } = ALPHABETS
  const hash = draw(32, hex)
  const signature = draw(64, hex)
  const b = draw(28, b64)
  test.each([
    [
      "Digest",
      `Authorization: Digest username="ci", realm="api", nonce="n0nce-1", uri="/", qop=auth, nc=00000001, cnonce="c0nce-1", response="${hash}", opaque="op-1"`,
      `Authorization: Digest username="ci", realm="api", nonce="n0nce-1", uri="/", qop=auth, nc=00000001, cnonce="c0nce-1", response="${R}", opaque="op-1"`,
    ],
    [
      "Proxy-Authorization Digest",
      `Proxy-Authorization: Digest username="bob", realm="proxy", response="${hash}", algorithm=MD5`,
      `Proxy-Authorization: Digest username="bob", realm="proxy", response="${R}", algorithm=MD5`,
    ],
    [
      "Digest inside a JSON string",
      `{"Authorization": "Digest username=\\"ci\\", realm=\\"api\\", response=\\"${hash}\\""}`,
      `{"Authorization": "Digest username=\\"ci\\", realm=\\"api\\", response=\\"${R}\\""}`,
    ],
    [
      "AWS Signature 4 with an access key id, which goes by its own rule",
      `Authorization: AWS4-HMAC-SHA256 Credential=AKIA${draw(16, "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=${signature}`,
      `Authorization: AWS4-HMAC-SHA256 Credential=${R}/20260101/us-east-1/s3/aws4_request, SignedHeaders=host, Signature=${R}`,
    ],
    [
      "OAuth 1",
      `Authorization: OAuth oauth_nonce="n1", oauth_signature="${b}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1700000000", oauth_token="${hash}"`,
      `Authorization: OAuth oauth_nonce="n1", oauth_signature="${R}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1700000000", oauth_token="${R}"`,
    ],
    [
      "HTTP Signatures",
      `Authorization: Signature keyId="app-key-1",algorithm="hmac-sha256",headers="(request-target) date",signature="${b}"`,
      `Authorization: Signature keyId="app-key-1",algorithm="hmac-sha256",headers="(request-target) date",signature="${R}"`,
    ],
    ["a token parameter", `Authorization: Token token="${hash}"`, `Authorization: Token token="${R}"`],
    [
      "a HAR file's Authorization header",
      `{"name": "authorization", "value": "Digest username=\\"ci\\", response=\\"${hash}\\""}`,
      `{"name": "authorization", "value": "Digest username=\\"ci\\", response=\\"${R}\\""}`,
    ],
    [
      "Digest in a request logged as bytes",
      `send: b'GET / HTTP/1.1\\r\\nAuthorization: Digest username="u", nonce="n1", response="${hash}"\\r\\n'`,
      `send: b'GET / HTTP/1.1\\r\\nAuthorization: Digest username="u", nonce="n1", response="${R}"\\r\\n'`,
    ],
    [
      "one unquoted parameter: the scheme's credential",
      `Authorization: Token token=${hash}`,
      `Authorization: Token ${R}`,
    ],
    ["Bearer, as before", `Authorization: Bearer ${signature}`, `Authorization: Bearer ${R}`],
    ["token, as before", `Authorization: token ${hash}`, `Authorization: token ${R}`],
  ])("%s", (_name, input, expected) => {
    expect(redactSecrets(input)).toBe(expected)
  })

  test.each([
    [
      "a Digest challenge",
      'WWW-Authenticate: Digest realm="api", qop="auth", nonce="4b1e9c07d2a85f3e6c90b7a1d4e2f863", opaque="a7c3e9f1b5d2084c6e1a3f9b7d5c2e08"',
    ],
    [
      "a proxy's challenge",
      `Proxy-Authenticate: Digest realm="proxy", nonce="${draw(24)}", algorithm=SHA-256, stale=true`,
    ],
    ["a Bearer challenge", 'WWW-Authenticate: Bearer realm="api", error="invalid_token", error_description="expired"'],
    ["Digest with no response yet", 'Authorization: Digest username="ci", realm="api", nonce="n0nce-1", uri="/"'],
  ])("kept: %s", (_name, line) => {
    expect(redactSecrets(line)).toBe(line)
  })
})

describe("the peers' benchmark: why a negative that redaction changes is a negative for its peer", () => {
  const positives = new Set(["743b294a-cd03-11ec-9d64-0242ac120002"])
  const negative = (text: string, source: string, peerRule?: string) => ({
    family: "negatives" as const,
    source,
    text,
    secret: "",
    ...(peerRule ? { peerRule } : {}),
  })
  test("each reason, checked in order: a positive's value, the rule's own regex, another rule, none", () => {
    const npm = negative("_authToken=743b294a-cd03-11ec-9d64-0242ac120002", "detect-secrets:npm", "npm")
    expect(whyNegative(npm, `_authToken=${REDACTED}`, positives)).toBe(
      "holds a value the peers count as a positive elsewhere",
    )
    // the value kept: the reason is the next one
    expect(whyNegative(npm, npm.text, positives)).toBe("its own rule's regex matches it")
    const gcp = negative("AIzaSyQ1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6j", "gitleaks:gcp-api-key", "gcp-api-key")
    expect(whyNegative(gcp, REDACTED, positives)).toBe("its own rule's regex matches it")
    const telegram = negative('telegram_api_token = "x"', "gitleaks:telegram-bot-api-token", "generic-api-key")
    expect(whyNegative(telegram, REDACTED, positives)).toBe("another rule of the peer matches it")
    expect(whyNegative(negative("SUMO_ACCESS_KEY: AbCeFG123", "gitleaks:sumologic-access-token"), "", positives)).toBe(
      "no regex of the peer matches it",
    )
  })
})
