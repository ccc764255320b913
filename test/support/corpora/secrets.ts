/**
 * Fake secrets in every vendor format and every assignment shape redaction covers, generated at run time from
 * a seeded PRNG: the repository holds no real-looking token, and every run measures the same samples.
 *
 * A format builds a token from its published shape (prefix, length, alphabet); a context places it in
 * text, standing alone or behind a telling name. `isRedacted` is the one verdict, and `tally` the one count,
 * that both the test suite and `bench/redaction.ts` use.
 */

import { randomToken, rng } from "../random.ts"

// ── generated fakes ──

const UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
const LOWER = "abcdefghijklmnopqrstuvwxyz"
const DIGITS = "0123456789"
export const ALPHABETS = {
  alnum: UPPER + LOWER + DIGITS,
  letters: UPPER + LOWER,
  lowerAlnum: LOWER + DIGITS,
  upperAlnum: UPPER + DIGITS,
  base32: `${UPPER}234567`,
  hex: "0123456789abcdef",
  digits: DIGITS,
  b64: `${UPPER}${LOWER}${DIGITS}+/`,
  b64url: `${UPPER}${LOWER}${DIGITS}-_`,
  /** What password generators emit, minus what every syntax would need escaped (quotes, `$`, `#`, `;`, …). */
  password: `${UPPER}${LOWER}${DIGITS}!@%^*-_+.~`,
} as const

/** Draws `length` (or a length in [min, max]) characters of `alphabet`. */
export type Draw = (length: number | readonly [number, number], alphabet?: string) => string

export function drawer(seed: number): Draw {
  const random = rng(seed)
  return (length, alphabet = ALPHABETS.alnum) => {
    const n = typeof length === "number" ? length : length[0] + Math.floor(random() * (length[1] - length[0] + 1))
    return randomToken(random, n, alphabet)
  }
}

const { alnum, hex, b64, b64url, digits, letters: latin } = ALPHABETS
const base64url = (text: string) => btoa(text).replace(/=+$/, "").replace(/\+/g, "-").replace(/\//g, "_")
const uuid = (draw: Draw) => `${draw(8, hex)}-${draw(4, hex)}-4${draw(3, hex)}-a${draw(3, hex)}-${draw(12, hex)}`

export function jwt(draw: Draw, alg = "HS256"): string {
  const header = base64url(JSON.stringify({ alg, typ: "JWT" }))
  const claims = { sub: draw(12, digits), name: draw(8, latin), iat: 1_700_000_000 + Number(draw(6, digits)) }
  const signature = alg === "none" ? "" : draw(alg === "RS256" ? 342 : 43, b64url)
  return `${header}.${base64url(JSON.stringify(claims))}.${signature}`
}

/** The fixed start of every OpenSSH key body (`openssh-key-v1`, no cipher): runs of `A` that real keys have. */
const OPENSSH_MAGIC = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"

export function pem(draw: Draw, kind: string): string {
  const lines = Array.from({ length: 6 }, () => draw(64, b64))
  if (kind.startsWith("OPENSSH")) lines[0] = OPENSSH_MAGIC
  return [`-----BEGIN ${kind}-----`, ...lines, `${draw(24, b64)}==`, `-----END ${kind}-----`].join("\n")
}

/** What a format inserts into text, and which parts of it must be gone after redaction. */
export interface Sample {
  text: string
  secrets: readonly string[]
}

export interface Format {
  family: string
  format: string
  /** A name this secret typically goes by in configuration. */
  name: string
  /** Prefix-anchored: recognisable standing alone, without a telling name. */
  alone: boolean
  make: (draw: Draw) => string | Sample
}

/** A manifest built around its secret values, each of which must be gone. */
const manifest = (values: string[], lines: (values: string[]) => string[]): Sample => ({
  text: lines(values).join("\n"),
  secrets: values,
})
const asSample = (made: string | Sample): Sample => (typeof made === "string" ? { text: made, secrets: [made] } : made)
const part = (text: string, secret: string): Sample => ({ text, secrets: [secret] })

type Row = [format: string, name: string, make: (draw: Draw) => string | Sample, alone?: boolean]
const family = (name: string, rows: readonly Row[]): Format[] =>
  rows.map(([format, key, make, alone = true]) => ({ family: name, format, name: key, alone, make }))

/** The families the README promised before this change. */
export const PROMISED_FORMATS: readonly Format[] = [
  ...family("GitHub", [
    ["classic personal access token", "GITHUB_TOKEN", (d) => `ghp_${d(36)}`],
    ["OAuth token", "GH_OAUTH_TOKEN", (d) => `gho_${d(36)}`],
    ["user-to-server token", "GITHUB_USER_TOKEN", (d) => `ghu_${d(36)}`],
    ["server-to-server token", "GITHUB_APP_TOKEN", (d) => `ghs_${d(36)}`],
    ["refresh token", "GITHUB_REFRESH_TOKEN", (d) => `ghr_${d([36, 76])}`],
    ["fine-grained token", "GITHUB_PAT", (d) => `github_pat_${d(22)}_${d(59)}`],
  ]),
  ...family("GitLab", [
    ["personal access token", "GITLAB_TOKEN", (d) => `glpat-${d(20, b64url)}`],
    [
      "routable personal access token",
      "GITLAB_TOKEN",
      (d) =>
        `glpat-${d(27)}.${d(2, "0123456789abcdefghijklmnopqrstuvwxyz")}${d(7, "0123456789abcdefghijklmnopqrstuvwxyz")}`,
    ],
    ["deploy token", "GITLAB_DEPLOY_TOKEN", (d) => `gldt-${d(20, b64url)}`],
    ["runner authentication token", "RUNNER_TOKEN", (d) => `glrt-${d(20, b64url)}`],
    [
      "routable runner token",
      "RUNNER_TOKEN",
      (d) => `glrt-t1_${d(27)}.01${d(7, "0123456789abcdefghijklmnopqrstuvwxyz")}`,
    ],
    ["runner registration token", "REGISTRATION_TOKEN", (d) => `GR1348941${d(20, b64url)}`],
    ["pipeline trigger token", "TRIGGER_TOKEN", (d) => `glptt-${d(40, hex)}`],
    ["CI/CD job token", "CI_JOB_TOKEN", (d) => `glcbt-${d([1, 5], hex)}_${d(20, b64url)}`],
    ["feed token", "GITLAB_FEED_TOKEN", (d) => `glft-${d(20, b64url)}`],
    ["incoming mail token", "INCOMING_EMAIL_TOKEN", (d) => `glimt-${d(25, b64url)}`],
    ["Kubernetes agent token", "AGENT_TOKEN", (d) => `glagent-${d(50, b64url)}`],
    ["OAuth application secret", "GITLAB_OAUTH_SECRET", (d) => `gloas-${d(64, b64url)}`],
    ["SCIM token", "SCIM_TOKEN", (d) => `glsoat-${d(20, b64url)}`],
    ["feature-flag client token", "UNLEASH_TOKEN", (d) => `glffct-${d(20, b64url)}`],
    [
      "session cookie",
      "GITLAB_COOKIE",
      (d) => {
        const value = d(32, "0123456789abcdefghijklmnopqrstuvwxyz")
        return part(`_gitlab_session=${value}`, value)
      },
    ],
  ]),
  ...family("OpenAI, Anthropic, OpenRouter (sk-)", [
    ["OpenAI legacy key", "OPENAI_API_KEY", (d) => `sk-${d(20)}T3BlbkFJ${d(20)}`],
    ["OpenAI key", "OPENAI_API_KEY", (d) => `sk-${d(48)}`],
    ["OpenAI project key", "OPENAI_API_KEY", (d) => `sk-proj-${d(156, b64url)}`],
    ["OpenAI service-account key", "OPENAI_API_KEY", (d) => `sk-svcacct-${d(156, b64url)}`],
    ["Anthropic key", "ANTHROPIC_API_KEY", (d) => `sk-ant-api03-${d(93, b64url)}AA`],
    ["Anthropic admin key", "ANTHROPIC_ADMIN_KEY", (d) => `sk-ant-admin01-${d(93, b64url)}AA`],
    ["OpenRouter key", "OPENROUTER_API_KEY", (d) => `sk-or-v1-${d(64, hex)}`],
    ["DeepSeek key", "DEEPSEEK_API_KEY", (d) => `sk-${d(32, hex)}`],
  ]),
  ...family("Slack", [
    ["bot token", "SLACK_BOT_TOKEN", (d) => `xoxb-${d(12, digits)}-${d(13, digits)}-${d(24)}`],
    ["user token", "SLACK_USER_TOKEN", (d) => `xoxp-${d(12, digits)}-${d(12, digits)}-${d(13, digits)}-${d(32, hex)}`],
    [
      "app-level token",
      "SLACK_APP_TOKEN",
      (d) => `xapp-1-A${d(10, ALPHABETS.upperAlnum)}-${d(13, digits)}-${d(64, hex)}`,
    ],
    ["refresh token", "SLACK_REFRESH_TOKEN", (d) => `xoxe-1-${d(140, alnum)}`],
    ["configuration token", "SLACK_CONFIG_TOKEN", (d) => `xoxe.xoxp-1-${d(140, alnum)}`],
    ["legacy workspace token", "SLACK_TOKEN", (d) => `xoxa-2-${d(12, digits)}-${d(12, digits)}-${d(32, hex)}`],
    ["client token", "SLACK_CLIENT_TOKEN", (d) => `xoxc-${d(12, digits)}-${d(12, digits)}-${d(64, hex)}`],
    [
      "incoming webhook",
      "SLACK_WEBHOOK_URL",
      (d) => {
        const path = `T${d(10, ALPHABETS.upperAlnum)}/B${d(10, ALPHABETS.upperAlnum)}/${d(24)}`
        return part(`https://hooks.slack.com/services/${path}`, path)
      },
    ],
  ]),
  ...family("Stripe", [
    ["secret key", "STRIPE_SECRET_KEY", (d) => `sk_live_${d([24, 99])}`],
    ["test secret key", "STRIPE_SECRET_KEY", (d) => `sk_test_${d([24, 99])}`],
    ["restricted key", "STRIPE_RESTRICTED_KEY", (d) => `rk_live_${d([24, 99])}`],
    ["test restricted key", "STRIPE_RESTRICTED_KEY", (d) => `rk_test_${d([24, 99])}`],
    ["prod-prefixed key", "STRIPE_KEY", (d) => `sk_prod_${d(99)}`],
    ["prod-prefixed restricted key", "STRIPE_KEY", (d) => `rk_prod_${d(99)}`],
    ["webhook signing secret", "STRIPE_WEBHOOK_SECRET", (d) => `whsec_${d(32)}`],
    ["payment intent client secret", "CLIENT_SECRET", (d) => `pi_${d(24)}_secret_${d(25)}`],
    ["setup intent client secret", "CLIENT_SECRET", (d) => `seti_${d(24)}_secret_${d(25)}`],
  ]),
  ...family("Google", [
    ["API key", "GOOGLE_API_KEY", (d) => `AIza${d(35, b64url)}`],
    ["OAuth client secret", "GOOGLE_CLIENT_SECRET", (d) => `GOCSPX-${d(28, b64url)}`],
    ["OAuth access token", "GOOGLE_ACCESS_TOKEN", (d) => `ya29.${d([120, 200], b64url)}`],
    ["OAuth refresh token", "GOOGLE_REFRESH_TOKEN", (d) => `1//0${d([90, 110], b64url)}`],
  ]),
  ...family("npm", [
    ["access token", "NPM_TOKEN", (d) => `npm_${d(36)}`],
    ["legacy token (UUID)", "_authToken", (d) => uuid(d), false],
  ]),
  ...family("Hugging Face", [
    ["access token", "HF_TOKEN", (d) => `hf_${d(34, latin)}`],
    ["organisation token", "HF_ORG_TOKEN", (d) => `api_org_${d(34, latin)}`],
  ]),
  ...family("AWS", [
    ["access key id", "AWS_ACCESS_KEY_ID", (d) => `AKIA${d(16, ALPHABETS.base32)}`],
    ["temporary access key id", "AWS_ACCESS_KEY_ID", (d) => `ASIA${d(16, ALPHABETS.base32)}`],
    ["session token", "AWS_SESSION_TOKEN", (d) => `IQoJb3JpZ2luX2Vj${d([300, 400], b64)}`],
    ["secret access key", "AWS_SECRET_ACCESS_KEY", (d) => d(40, b64), false],
  ]),
  ...family("JWT", [
    ["HS256", "ACCESS_TOKEN", (d) => jwt(d)],
    ["RS256", "ID_TOKEN", (d) => jwt(d, "RS256")],
    ["unsigned", "ACCESS_TOKEN", (d) => jwt(d, "none")],
    [
      "glued after an underscore (GitHub app installation)",
      "GITHUB_APP_TOKEN",
      (d) => {
        const token = jwt(d)
        return part(`ghs_${d(8, digits)}_${token}`, token)
      },
    ],
  ]),
  ...family("Private keys", [
    ["RSA", "PRIVATE_KEY", (d) => pem(d, "RSA PRIVATE KEY")],
    ["PKCS #8", "PRIVATE_KEY", (d) => pem(d, "PRIVATE KEY")],
    ["EC", "PRIVATE_KEY", (d) => pem(d, "EC PRIVATE KEY")],
    ["OpenSSH", "SSH_KEY", (d) => pem(d, "OPENSSH PRIVATE KEY")],
    ["encrypted", "PRIVATE_KEY", (d) => pem(d, "ENCRYPTED PRIVATE KEY")],
    ["PGP", "GPG_KEY", (d) => pem(d, "PGP PRIVATE KEY BLOCK")],
  ]).map((format) => ({
    ...format,
    make: (d: Draw) => {
      const block = format.make(d) as string
      return { text: block, secrets: block.split("\n").slice(1, -1) }
    },
  })),
]

/** Widely used vendors the README did not name before this change. */
export const VENDOR_FORMATS: readonly Format[] = [
  ...family("SendGrid", [["API key", "SENDGRID_API_KEY", (d) => `SG.${d(22, b64url)}.${d(43, b64url)}`]]),
  ...family("Shopify", [
    ["admin API access token", "SHOPIFY_ACCESS_TOKEN", (d) => `shpat_${d(32, hex)}`],
    ["shared secret", "SHOPIFY_API_SECRET", (d) => `shpss_${d(32, hex)}`],
    ["custom app token", "SHOPIFY_TOKEN", (d) => `shpca_${d(32, hex)}`],
    ["private app password", "SHOPIFY_PASSWORD", (d) => `shppa_${d(32, hex)}`],
  ]),
  ...family("Twilio", [
    ["API key", "TWILIO_API_KEY", (d) => `SK${d(32, hex)}`],
    ["auth token", "TWILIO_AUTH_TOKEN", (d) => d(32, hex), false],
    ["API secret", "TWILIO_API_SECRET", (d) => d(32), false],
  ]),
  ...family("Discord", [
    ["bot token", "DISCORD_TOKEN", (d) => `${base64url(`1${d(18, digits)}`)}.${d(6, b64url)}.${d(38, b64url)}`],
    [
      "bot token, older",
      "DISCORD_BOT_TOKEN",
      (d) => `${base64url(`8${d(17, digits)}`)}.${d(6, b64url)}.${d(27, b64url)}`,
    ],
    [
      "webhook",
      "DISCORD_WEBHOOK_URL",
      (d) => {
        const token = d(68, b64url)
        return part(`https://discord.com/api/webhooks/${d(19, digits)}/${token}`, token)
      },
    ],
    ["client secret", "DISCORD_CLIENT_SECRET", (d) => d(32, b64url), false],
  ]),
  ...family("Telegram", [["bot token", "TELEGRAM_BOT_TOKEN", (d) => `${d([8, 10], digits)}:AA${d(33, b64url)}`]]),
  ...family("PyPI", [
    ["upload token", "PYPI_TOKEN", (d) => `pypi-AgEIcHlwaS5vcmc${d([150, 200], b64url)}`],
    ["TestPyPI upload token", "TEST_PYPI_TOKEN", (d) => `pypi-AgENdGVzdC5weXBpLm9yZw${d([150, 200], b64url)}`],
  ]),
  ...family("Databricks", [
    ["personal access token", "DATABRICKS_TOKEN", (d) => `dapi${d(32, hex)}`],
    ["personal access token, numbered", "DATABRICKS_TOKEN", (d) => `dapi${d(32, hex)}-2`],
    ["OAuth secret", "DATABRICKS_CLIENT_SECRET", (d) => `dose${d(32, hex)}`],
  ]),
  ...family("HashiCorp Vault", [
    ["service token", "VAULT_TOKEN", (d) => `hvs.${d([90, 100], b64url)}`],
    ["batch token", "VAULT_TOKEN", (d) => `hvb.${d([138, 160], b64url)}`],
    [
      "legacy service token",
      "VAULT_TOKEN",
      (d) => `s.${d(22)}${d(1, "0123456789")}${d(1, "ABCDEFGHIJKLMNOPQRSTUVWXYZ")}`,
    ],
  ]),
  ...family("Terraform Cloud", [["API token", "TFE_TOKEN", (d) => `${d(14)}.atlasv1.${d(67, b64url)}`]]),
  ...family("Grafana", [
    [
      "cloud access policy token",
      "GRAFANA_CLOUD_TOKEN",
      (d) => `glc_${btoa(`{"o":"${d(7, digits)}","n":"${d(12, latin)}","k":"${d(24)}","m":{"r":"prod-us-east-0"}}`)}`,
    ],
    ["service account token", "GRAFANA_SA_TOKEN", (d) => `glsa_${d(32)}_${d(8, hex)}`],
    [
      "legacy API key",
      "GRAFANA_API_KEY",
      (d) => `eyJrIjoi${btoa(`${d(32)}","n":"${d(8, latin)}","id":${d(3, digits)}}`)}`,
    ],
  ]),
  ...family("Azure", [
    [
      "Entra ID client secret",
      "AZURE_CLIENT_SECRET",
      (d) => `${d(3, `${alnum}_~.`)}${d(1, digits)}Q~${d(34, `${alnum}_~.-`)}`,
    ],
    ["storage account key", "AZURE_STORAGE_KEY", (d) => `${d(86, b64)}==`, false],
    [
      "storage connection string",
      "AZURE_STORAGE_CONNECTION_STRING",
      (d) => {
        const key = `${d(86, b64)}==`
        return part(
          `DefaultEndpointsProtocol=https;AccountName=st${d(8, ALPHABETS.lowerAlnum)};AccountKey=${key};EndpointSuffix=core.windows.net`,
          key,
        )
      },
    ],
    [
      "Service Bus connection string",
      "SERVICEBUS_CONNECTION",
      (d) => {
        const key = `${d(43, b64)}=`
        return part(
          `Endpoint=sb://bus-${d(6, ALPHABETS.lowerAlnum)}.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${key}`,
          key,
        )
      },
    ],
    [
      "Cosmos DB connection string",
      "COSMOS_CONNECTION",
      (d) => {
        const key = `${d(86, b64)}==`
        return part(
          `AccountEndpoint=https://db-${d(6, ALPHABETS.lowerAlnum)}.documents.azure.com:443/;AccountKey=${key};`,
          key,
        )
      },
    ],
    [
      "SAS URL",
      "AZURE_SAS_URL",
      (d) => {
        const signature = `${d(43, alnum)}%3D`
        return part(
          `https://st${d(8, ALPHABETS.lowerAlnum)}.blob.core.windows.net/backups?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2030-01-01T00:00:00Z&sig=${signature}`,
          signature,
        )
      },
    ],
  ]),
  ...family("DigitalOcean", [
    ["personal access token", "DIGITALOCEAN_TOKEN", (d) => `dop_v1_${d(64, hex)}`],
    ["OAuth token", "DO_OAUTH_TOKEN", (d) => `doo_v1_${d(64, hex)}`],
    ["refresh token", "DO_REFRESH_TOKEN", (d) => `dor_v1_${d(64, hex)}`],
  ]),
  ...family("Heroku", [
    ["API key", "HEROKU_API_KEY", (d) => `HRKU-AA${d(58, b64url)}`],
    ["legacy API key (UUID)", "HEROKU_API_KEY", (d) => uuid(d), false],
  ]),
  ...family("Mailgun", [
    ["private API key", "MAILGUN_API_KEY", (d) => `key-${d(32, hex)}`],
    ["API key", "MAILGUN_API_KEY", (d) => `${d(32, hex)}-${d(8, hex)}-${d(8, hex)}`],
    ["public validation key", "MAILGUN_PUBLIC_KEY", (d) => `pubkey-${d(32, hex)}`],
  ]),
  ...family("Tailscale", [
    ["auth key", "TS_AUTHKEY", (d) => `tskey-auth-k${d(11)}CNTRL-${d(33)}`],
    ["API access token", "TAILSCALE_API_KEY", (d) => `tskey-api-k${d(11)}CNTRL-${d(33)}`],
    ["OAuth client secret", "TS_OAUTH_SECRET", (d) => `tskey-client-k${d(11)}CNTRL-${d(33)}`],
  ]),
  ...family("Vercel", [
    ["personal token", "VERCEL_TOKEN", (d) => `vcp_${d([40, 56])}`],
    ["integration token", "VERCEL_TOKEN", (d) => `vci_${d([40, 56])}`],
    ["app access token", "VERCEL_ACCESS_TOKEN", (d) => `vca_${d([40, 56])}`],
    ["legacy token", "VERCEL_TOKEN", (d) => d(24), false],
  ]),
  ...family("Linear", [
    ["API key", "LINEAR_API_KEY", (d) => `lin_api_${d(40)}`],
    ["OAuth token", "LINEAR_TOKEN", (d) => `lin_oauth_${d(64, hex)}`],
  ]),
  ...family("Notion", [
    ["integration token", "NOTION_TOKEN", (d) => `ntn_${d(11, digits)}${d(35)}`],
    ["legacy integration token", "NOTION_API_KEY", (d) => `secret_${d(43)}`],
  ]),
  ...family("1Password", [
    [
      "service account token",
      "OP_SERVICE_ACCOUNT_TOKEN",
      (d) =>
        `ops_${btoa(`{"signInAddress":"my.1password.com","userAuth":{"method":"SRPg-4096","alg":"PBES2g-HS256","iterations":650000,"salt":"${d(22, b64url)}"},"email":"${d(12, "abcdefghijklmnopqrstuvwxyz")}@1passwordserviceaccounts.com","srpX":"${d(64, hex)}","muk":{"alg":"A256GCM","ext":true,"k":"${d(43, b64url)}","key_ops":["encrypt","decrypt"],"kty":"oct","kid":"mp"},"secretKey":"A3-${d(6, ALPHABETS.upperAlnum)}"}`)}`,
    ],
    [
      "secret key",
      "OP_SECRET_KEY",
      (d) =>
        `A3-${d(6, ALPHABETS.upperAlnum)}-${d(6, ALPHABETS.upperAlnum)}-${d(5, ALPHABETS.upperAlnum)}-${d(5, ALPHABETS.upperAlnum)}-${d(5, ALPHABETS.upperAlnum)}-${d(5, ALPHABETS.upperAlnum)}`,
    ],
  ]),
  ...family("Sourcegraph", [
    ["access token", "SRC_ACCESS_TOKEN", (d) => `sgp_${d(16, hex)}_${d(40, hex)}`],
    ["local access token", "SRC_ACCESS_TOKEN", (d) => `sgp_local_${d(40, hex)}`],
    ["legacy access token", "SRC_ACCESS_TOKEN", (d) => `sgp_${d(40, hex)}`],
  ]),
  ...family("Facebook", [
    ["page access token", "FB_PAGE_TOKEN", (d) => `EAA${d(1, "BCDGIM")}${d([150, 200])}`],
    ["app secret", "FACEBOOK_APP_SECRET", (d) => d(32, hex), false],
  ]),
  ...family("Kubernetes", [
    [
      "Secret manifest, data",
      "",
      (d) =>
        manifest([btoa(d(12)), btoa(`postgres://app:${d(16)}@db:5432/app`), btoa(d(24))], (v) => [
          "apiVersion: v1",
          "kind: Secret",
          "metadata:",
          "  name: app-credentials",
          "type: Opaque",
          "data:",
          `  username: ${v[0]}`,
          `  database-url: ${v[1]}`,
          `  api-key: "${v[2]}"`,
        ]),
    ],
    [
      "Secret manifest, stringData",
      "",
      (d) =>
        manifest([d(16, ALPHABETS.password), d(32)], (v) => [
          "apiVersion: v1",
          "kind: Secret",
          "stringData:",
          `  smtp-login: ${v[0]}`,
          "  relay.conf: |",
          `    user ${v[1]}`,
          "type: Opaque",
        ]),
    ],
    [
      "kubectl get secret -o yaml (kind after data)",
      "",
      (d) =>
        manifest([btoa(d(20)), btoa(d(32))], (v) => [
          "apiVersion: v1",
          "data:",
          `  tls.crt: ${v[0]}`,
          `  tls.key: ${v[1]}`,
          "kind: Secret",
          "metadata:",
          '  creationTimestamp: "2024-05-01T10:00:00Z"',
          "type: kubernetes.io/tls",
        ]),
    ],
    [
      "kubectl get secret -o json",
      "",
      (d) =>
        manifest([btoa(d(20)), btoa(d(28))], (v) =>
          JSON.stringify({ apiVersion: "v1", data: { user: v[0], token: v[1] }, kind: "Secret" }, null, 4).split("\n"),
        ),
    ],
  ]),
]

/** Further vendors whose tokens carry a prefix, covered while at it. */
export const EXTRA_FORMATS: readonly Format[] = [
  ...family("Groq", [["API key", "GROQ_API_KEY", (d) => `gsk_${d(52)}`]]),
  ...family("xAI", [["API key", "XAI_API_KEY", (d) => `xai-${d(80)}`]]),
  ...family("Perplexity", [["API key", "PPLX_API_KEY", (d) => `pplx-${d(48)}`]]),
  ...family("Replicate", [["API token", "REPLICATE_API_TOKEN", (d) => `r8_${d(37)}`]]),
  ...family("Supabase", [
    ["access token", "SUPABASE_ACCESS_TOKEN", (d) => `sbp_${d(40, hex)}`],
    ["secret key", "SUPABASE_SECRET_KEY", (d) => `sb_secret_${d(32, b64url)}`],
  ]),
  ...family("Postman", [["API key", "POSTMAN_API_KEY", (d) => `PMAK-${d(24, hex)}-${d(34, hex)}`]]),
  ...family("Sentry", [
    ["user token", "SENTRY_AUTH_TOKEN", (d) => `sntryu_${d(64, hex)}`],
    [
      "organisation token",
      "SENTRY_AUTH_TOKEN",
      (d) => `sntrys_${btoa(`{"iat":${d(10, digits)},"url":"https://sentry.io","org":"acme"}`)}_${d(43, b64url)}`,
    ],
  ]),
  ...family("New Relic", [["user API key", "NEW_RELIC_API_KEY", (d) => `NRAK-${d(27, ALPHABETS.upperAlnum)}`]]),
  ...family("Doppler", [["personal token", "DOPPLER_TOKEN", (d) => `dp.pt.${d(43)}`]]),
  ...family("PlanetScale", [
    ["service token", "PLANETSCALE_TOKEN", (d) => `pscale_tkn_${d(43, b64url)}`],
    ["database password", "DATABASE_PASSWORD", (d) => `pscale_pw_${d(43, b64url)}`],
  ]),
  ...family("Atlassian", [["API token", "JIRA_API_TOKEN", (d) => `ATATT3xFfGF0${d(180, b64url)}=${d(8, hex)}`]]),
  ...family("age", [["secret key", "AGE_KEY", (d) => `AGE-SECRET-KEY-1${d(58, ALPHABETS.upperAlnum)}`]]),
  ...family("Mapbox", [
    [
      "secret token",
      "MAPBOX_SECRET_TOKEN",
      (d) => `sk.${base64url(`{"u":"${d(8, latin)}","a":"${d(25)}"}`)}.${d(22, b64url)}`,
    ],
  ]),
]

/** Where a token stands alone: nothing around it says it is a secret. */
export const ALONE_CONTEXTS: readonly string[] = [
  "Use {s} for the staging deploy.",
  '{"value": "{s}", "enabled": true}',
  "deploy --target prod {s}",
  "  - {s}",
  'client.connect("{s}")',
  "2024-05-01T10:00:00Z INFO started with {s}",
  "Paste `{s}` into the settings page.",
  "<td>{s}</td>",
]

/** Where it stands behind its usual name. */
export const NAMED_CONTEXTS: readonly string[] = [
  "{N}={s}",
  'export {N}="{s}"',
  "  {N}: {s}",
  '{"{N}": "{s}"}',
  "{N} = '{s}'",
  'const {N} = "{s}"',
  "{N} := `{s}`",
  '{N} = "{s}"',
]

// ── assignment shapes ──

/** In templates, `{$}` is a literal `$` (PHP's variables), so no template string placeholder is mistaken for one. */
const DOLLAR = "{$}"

/** Names in every case and spelling, for shapes that take a name of that form. */
export const NAMES = {
  upper: [
    "DB_PASSWORD",
    "API_KEY",
    "SECRET_KEY",
    "AWS_SECRET_ACCESS_KEY",
    "CLIENT_SECRET",
    "DB_PASS",
    "AUTH_TOKEN",
    "JWT_SECRET",
    "ENCRYPTION_KEY",
    "SMTP_PASSWORD",
    "PASSPHRASE",
    "SESSION_SECRET",
    "APP_CREDENTIALS",
    "MY_APP_DB_PASSWORD",
    "REDIS_PWD",
    "AWS_SESSION_TOKEN",
    "SECRET",
  ],
  snake: [
    "password",
    "passwd",
    "pwd",
    "secret",
    "token",
    "api_key",
    "apikey",
    "db_password",
    "client_secret",
    "api_token",
    "access_token",
    "secret_key",
    "auth_token",
    "aws_secret_access_key",
    "aws_session_token",
    "private_key",
    "smtp_pass",
    "webhook_secret",
  ],
  camel: [
    "apiKey",
    "apiToken",
    "accessToken",
    "clientSecret",
    "dbPassword",
    "secretKey",
    "authToken",
    "githubToken",
    "sessionToken",
    "masterKey",
    "adminPassword",
    "signingSecret",
  ],
  pascal: ["ApiKey", "Password", "ClientSecret", "SecretAccessKey", "AccessToken", "SessionToken", "DbPassword"],
  kebab: ["api-key", "client-secret", "db-password", "x-api-key", "auth-token", "access-token"],
  dotted: [
    "db.password",
    "spring.datasource.password",
    "app.secret-key",
    "jwt.secret",
    "mail.smtp.password",
    "oauth.client-secret",
  ],
} as const
type NameStyle = keyof typeof NAMES

export interface Shape {
  shape: string
  /** The name styles the syntax allows. */
  styles: readonly NameStyle[]
  /** `{n}` is the name, `{s}` the secret. */
  templates: readonly string[]
  /** Characters the value may not hold in this syntax (its delimiters). */
  avoid?: string
  /** The values this shape holds, where they have a shape of their own (a Vault unseal key is base64 of 32 bytes). */
  value?: (draw: Draw) => string
}

export const SHAPES: readonly Shape[] = [
  {
    shape: "dotenv",
    styles: ["upper"],
    templates: ["{n}={s}", '{n}="{s}"', "{n}='{s}'", "{n}={s} # rotated monthly", "{PATH=/usr/bin, {n}={s}, LANG=C}"],
    avoid: ",",
  },
  {
    shape: "shell export",
    styles: ["upper"],
    templates: ["export {n}={s}", 'export {n}="{s}"', "{n}={s} ./run.sh", '{$}env:{n} = "{s}"'],
  },
  {
    shape: "INI",
    styles: ["snake", "camel", "dotted"],
    templates: ["[default]\n{n} = {s}", "{n}={s}", "[client]\nuser = app\n{n} = {s}\n"],
  },
  {
    shape: "YAML unquoted",
    styles: ["snake", "upper", "camel", "pascal", "kebab"],
    templates: ["{n}: {s}", "env:\n  {n}: {s}\n  LOG_LEVEL: info", "  - {n}: {s}"],
  },
  { shape: "YAML quoted", styles: ["snake", "upper", "camel", "kebab"], templates: ['{n}: "{s}"', "  {n}: '{s}'"] },
  { shape: "TOML", styles: ["snake", "kebab"], templates: ['{n} = "{s}"', "[database]\nhost = \"db\"\n{n} = '{s}'"] },
  {
    shape: "JSON",
    styles: ["snake", "camel", "upper", "pascal", "kebab"],
    templates: ['{"{n}": "{s}"}', '{\n  "user": "app",\n  "{n}":"{s}"\n}', '{"config.ini": "{N}={s}\\nBACKUP=true"}'],
  },
  {
    shape: "JSON in a string",
    styles: ["snake", "camel"],
    templates: ['"{\\"{n}\\":\\"{s}\\"}"', 'body: "{\\"user\\":\\"a\\",\\"{n}\\": \\"{s}\\"}"'],
  },
  {
    shape: "XML element",
    styles: ["snake", "camel", "pascal", "kebab"],
    templates: ["<{n}>{s}</{n}>", "<config>\n  <{n}>\n    {s}\n  </{n}>\n</config>"],
    avoid: "<>",
  },
  {
    shape: "XML attribute",
    styles: ["snake", "camel", "pascal", "dotted"],
    templates: [
      '<add key="{n}" value="{s}" />',
      '<property name="{n}" value="{s}"/>',
      '<connection {c}="{s}" />',
      '<entry key="{n}">{s}</entry>',
    ],
    avoid: "<>",
  },
  { shape: "properties", styles: ["dotted", "snake"], templates: ["{n}={s}", "{n} = {s}", "{n}: {s}"] },
  { shape: "HCL", styles: ["snake"], templates: ['{n} = "{s}"', 'resource "x" "y" {\n  {n} = "{s}"\n}'] },
  {
    shape: "Go",
    styles: ["camel", "snake"],
    templates: [
      'var {n} string = "{s}"',
      '{n} := "{s}"',
      "{n} := `{s}`",
      'const {n} = "{s}"',
      'os.Setenv("{N}", "{s}")',
    ],
  },
  {
    shape: "Java, Kotlin",
    styles: ["camel", "upper"],
    templates: [
      'String {n} = "{s}";',
      'private static final String {N} = "{s}";',
      'System.setProperty("{N}", "{s}");',
      'val {n}: String = "{s}"',
    ],
  },
  {
    shape: "C#",
    styles: ["camel", "pascal"],
    templates: [
      'string {n} = "{s}";',
      'var {n} = @"{s}";',
      '"ConnectionStrings": { "Db": "Server=db;User Id=app;{P}={s};" }',
    ],
    avoid: ";",
  },
  {
    shape: "Python",
    styles: ["snake", "upper"],
    templates: [
      "{n} = '{s}'",
      '{N} = "{s}"',
      'os.environ["{N}"] = "{s}"',
      'client = Client({n}="{s}")',
      '{n}: str = "{s}"',
    ],
  },
  {
    shape: "JavaScript, TypeScript",
    styles: ["camel", "upper"],
    templates: [
      'const {n} = "{s}"',
      "  {n}: '{s}',",
      'process.env.{N} = "{s}"',
      "const {n} = `{s}`",
      'let {n}: string = "{s}";',
    ],
  },
  {
    shape: "PHP",
    styles: ["camel", "snake", "upper"],
    templates: ["{$}{n} = '{s}';", "define('{N}', '{s}');", "    '{n}' => '{s}',", '{$}{n} .= "{s}";'],
  },
  {
    shape: "Ruby",
    styles: ["snake"],
    templates: ["{n} = '{s}'", ":{n} => '{s}'", "  {n}: '{s}',", 'config.{n} = "{s}"', "@{n} ||= '{s}'"],
  },
  {
    shape: "Makefile",
    styles: ["upper"],
    templates: ["{n} ?= {s}", "{n} := {s}", "{n} ::= {s}", "{n} :::= {s}", '{n} = "{s}"'],
  },
  {
    shape: "alignment spaces",
    styles: ["upper", "snake"],
    templates: ["{n}          = {s}", "{n}            : {s}", '{n}\t\t= "{s}"'],
  },
  {
    shape: "command-line flags",
    styles: ["kebab", "snake"],
    templates: ["deploy --{n} {s} --region eu", "deploy --{n}={s}", 'tool -{n} "{s}"', 'args: ["--{n}", "{s}"]'],
  },
  {
    shape: "curl -u",
    styles: ["snake"],
    templates: ["curl -u admin:{s} https://api.example.test", 'curl --user "ci:{s}" -X POST https://x.example.test'],
    avoid: ":@",
  },
  {
    shape: "docker login -p",
    styles: ["snake"],
    templates: [
      "docker login -u ci -p {s} registry.example.test",
      "podman login --password {s} quay.example.test",
      "helm registry login -u bot -p {s} oci.example.test",
    ],
  },
  {
    shape: "mysql -p",
    styles: ["snake"],
    templates: [
      "mysql -u root -p{s} app",
      "mysqldump -uroot -p{s} --all-databases > dump.sql",
      "sshpass -p '{s}' ssh deploy@host",
      "redis-cli -h cache -a {s} ping",
    ],
  },
  {
    shape: ".netrc",
    styles: ["snake"],
    templates: [
      "machine api.example.test login ci password {s}",
      "machine git.example.test\n  login bot\n  password {s}\n",
    ],
  },
  {
    shape: "Kubernetes env",
    styles: ["upper"],
    templates: [
      'env:\n  - name: {n}\n    value: "{s}"',
      "- name: {n}\n  value: {s}",
      '{ name: {n}, value: "{s}" }',
      '{"name": "{n}", "value": "{s}"}',
    ],
  },
  {
    shape: "Authorization header",
    styles: ["snake"],
    templates: [
      "Authorization: token {s}",
      "Authorization: {s}",
      'curl -H "Authorization: Bot {s}" https://x.example.test',
      '"Authorization": "Token {s}"',
      "authorization: SSWS {s}",
    ],
  },
  {
    shape: "query string",
    styles: ["snake"],
    templates: [
      "GET https://api.example.test/v1/items?{q}={s}&page=2",
      '<img src="https://maps.example.test/tile.png?{q}={s}">',
    ],
    avoid: "&#+%",
  },
  {
    shape: ".npmrc",
    styles: ["snake"],
    templates: [
      "//registry.npmjs.org/:_authToken={s}",
      "_authToken = {s}",
      "//npm.pkg.example.test/:_auth={s}",
      "_password={s}",
    ],
  },
  {
    shape: "SQL",
    styles: ["snake"],
    templates: ["CREATE USER app WITH PASSWORD '{s}';", "CREATE USER 'app'@'%' IDENTIFIED BY '{s}';"],
  },
  {
    shape: "access token names (_PAT)",
    styles: ["snake"],
    templates: ["GITHUB_PAT={s}", 'export AZURE_DEVOPS_PAT="{s}"', "ado_pat: {s}", "gitlab-pat: '{s}'"],
  },
  {
    // A login or an API key only where it looks random: what these tools take is a token, not a word.
    shape: "build tools (Sonar, NuGet)",
    styles: ["snake"],
    templates: [
      "mvn sonar:sonar -Dsonar.login={s} -Dsonar.host.url=https://sonar.example.test",
      "./gradlew sonar -Dsonar.token={s}",
      "nuget push app.1.0.0.nupkg {s} -Source https://nuget.example.test/v3/index.json",
      "dotnet nuget push app.nupkg -k {s} -s https://nuget.example.test",
      "nuget setapikey {s} -Source https://nuget.example.test",
    ],
    avoid: "-_.+",
  },
  {
    shape: "psexec -p",
    styles: ["snake"],
    templates: ["psexec \\\\build01 -u ci -p {s} cmd /c deploy.bat", "PsExec64.exe \\\\host -u admin -p {s} -i whoami"],
  },
  {
    shape: "Terraform variable default",
    styles: ["snake"],
    templates: [
      'variable "{n}" {\n  type      = string\n  default   = "{s}"\n  sensitive = true\n}',
      'variable "{n}" { default = "{s}" }',
    ],
  },
  {
    shape: "comparisons",
    styles: ["snake", "camel", "upper"],
    templates: [
      'if ({n} == "{s}") {',
      "if {n} == '{s}':",
      'if (req.body.{n} === "{s}") return next()',
      "if ({n} !== '{s}') throw new Error(denied)",
      'if ("{s}".equals({n})) {',
    ],
  },
  {
    shape: "comparing calls",
    styles: ["snake", "camel"],
    templates: [
      'if ({n}.equals("{s}")) {',
      'return {n}.equalsIgnoreCase("{s}");',
      'if (strcmp({n}, "{s}") == 0)',
      'ok = hmac.compare_digest({n}, "{s}")',
      "if (hash_equals({$}{n}, '{s}')) {",
    ],
  },
  {
    shape: "setters, builders, constructors",
    styles: ["snake", "camel"],
    templates: [
      'dataSource.set{P}("{s}");',
      'cfg.Set{P}("{s}")',
      'Client.builder().{c}("{s}").build()',
      '.with{P}("{s}".toCharArray())',
      'std::string {n}("{s}");',
    ],
  },
  {
    // The name is the call's own: the user it takes stays, the password goes.
    shape: "credentials by position",
    styles: ["snake"],
    templates: [
      'auth = HTTPBasicAuth("admin", "{s}")',
      'r = requests.get(url, auth=("admin", "{s}"))',
      'req.SetBasicAuth("admin", "{s}")',
      'var cred = new NetworkCredential("admin", "{s}");',
      'Connection c = DriverManager.getConnection(url, "admin", "{s}");',
      'server.login("me@example.test", "{s}")',
      'new UsernamePasswordCredentials("admin", "{s}")',
      'auth := smtp.PlainAuth("", "me@example.test", "{s}", "smtp.example.test")',
    ],
  },
  {
    shape: "YAML block scalars",
    styles: ["snake", "camel", "upper"],
    templates: ["{n}: |\n  {s}", "{n}: >-\n  {s}\nnext: 1", "config:\n  {n}: |-\n    {s}\n  host: db"],
  },
  {
    shape: "assignments in a quoted value",
    styles: ["upper"],
    templates: [
      'env: "{n}={s}"',
      'command: ["sh", "-c", "{n}={s} ./run"]',
      '"environment": ["{n}={s}"]',
      "docker run --env={n}={s} app",
    ],
  },
  {
    shape: "Vault unseal keys",
    styles: ["snake"],
    templates: ["Unseal Key 1: {s}\nUnseal Key 2: …", "Recovery Key 3: {s}"],
    value: (draw) => draw(44, b64),
  },
  {
    shape: "sqlcmd, bcp, zip, 7z, mongosh -P/-p",
    styles: ["snake"],
    templates: [
      'sqlcmd -S db.example.test -U sa -P {s} -Q "SELECT 1"',
      "bcp dbo.orders out orders.dat -S db -U etl -P {s} -c",
      "zip -P {s} backup.zip db.sql",
      "$ unzip -P {s} backup.zip",
      "7z a -p{s} -mhe=on backup.7z data/",
      'docker exec -it sql1 /opt/mssql-tools18/bin/sqlcmd -S localhost -U sa -P "{s}" -C',
      "mongosh mongodb://db.example.test -u admin -p {s}",
    ],
  },
  {
    shape: "keytool, jarsigner passwords",
    styles: ["snake"],
    templates: [
      'keytool -genkeypair -alias app -keystore app.jks -storepass {s} -dname "CN=app"',
      "jarsigner -keystore release.jks -storepass {s} app.apk release",
      "keytool -importkeystore -srckeystore a.p12 -srcstorepass {s} -destkeystore b.jks",
      "keytool -keypasswd -alias app -keystore app.jks -new {s}",
    ],
  },
  {
    shape: "ssh-keygen -N/-P",
    styles: ["snake"],
    templates: ['ssh-keygen -t ed25519 -N "{s}" -f deploy_key', "ssh-keygen -p -f id_rsa -P '{s}' -N ''"],
  },
  {
    shape: "htpasswd -b, net user",
    styles: ["snake"],
    templates: [
      "htpasswd -bc /etc/nginx/.htpasswd admin {s}",
      "htpasswd -nbB deploy {s}",
      "net user svc_backup {s} /add",
      "C:\\> NET USER Administrator {s}",
      "docker run --rm --entrypoint htpasswd httpd:2 -Bbn registry {s} > auth/htpasswd",
      "net user /add svc_deploy {s}",
    ],
  },
  {
    shape: "gh secret set --body",
    styles: ["snake"],
    templates: [
      'gh secret set DEPLOY_KEY --body "{s}"',
      "gh secret set API_TOKEN -b {s} --repo acme/app",
      "gh secret set NPM_TOKEN --body={s}",
    ],
  },
  {
    shape: "--password-stdin literal",
    styles: ["snake"],
    templates: [
      'echo "{s}" | docker login -u ci --password-stdin registry.example.test',
      "printf '%s' '{s}' | helm registry login oci.example.test -u bot --password-stdin",
      "echo -n {s} | podman login quay.example.test -u me --password-stdin",
      'oras login registry.example.test -u ci --password-stdin <<< "{s}"',
    ],
  },
  {
    // Session ids as frameworks draw them: hex, lower-case base36, base64url, signed (`s%3A<id>.<hmac>`).
    shape: "session cookies",
    styles: ["snake"],
    templates: [
      "Cookie: theme=dark; sessionid={s}; lang=en",
      "< Set-Cookie: PHPSESSID={s}; path=/; HttpOnly",
      "set-cookie: connect.sid={s}; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly",
      "curl -b 'laravel_session={s}' https://app.example.test/home",
      'document.cookie = "auth_token={s}; path=/; secure"',
      ".app.example.test\tTRUE\t/\tTRUE\t1798761600\t_gh_sess\t{s}",
      '{"name": "JSESSIONID", "value": "{s}", "domain": "app.example.test"}',
      "requests.get(url, cookies={'theme': 'dark', 'sessionid': '{s}'})",
      "res.cookie('sid', '{s}', { httpOnly: true, secure: true })",
      '{"name": "set-cookie", "value": "ASP.NET_SessionId={s}; path=/; HttpOnly"}',
      "send: b'GET / HTTP/1.1\\r\\nCookie: user_session={s}\\r\\nHost: app.example.test\\r\\n'",
    ],
    value: (draw) => {
      switch (draw(1, "0123")) {
        case "0":
          return draw(32, hex)
        case "1":
          return draw(26, "abcdefghijklmnopqrstuvwxyz0123456789")
        case "2":
          return draw(43, b64url)
        default:
          return `s%3A${draw(32, b64url)}.${draw(43, alnum)}`
      }
    },
  },
  {
    shape: "Authorization parameters",
    styles: ["snake"],
    templates: [
      'Authorization: Digest username="ci", realm="api@example.test", nonce="n0nce-0001", uri="/v1/items", qop=auth, nc=00000001, cnonce="c0nce-0001", response="{s}", opaque="opaque-0001"',
      'Proxy-Authorization: Digest username="bob", realm="proxy", nonce="n0nce-0002", uri="/", response="{s}"',
      "Authorization: AWS4-HMAC-SHA256 Credential=KEYID0001/20260101/us-east-1/s3/aws4_request, SignedHeaders=host;x-amz-date, Signature={s}",
      'Authorization: OAuth oauth_consumer_key="ck", oauth_nonce="n1", oauth_signature="{s}", oauth_signature_method="HMAC-SHA1", oauth_timestamp="1700000000"',
      'Authorization: Signature keyId="app-key-1",algorithm="hmac-sha256",headers="(request-target) date",signature="{s}"',
    ],
    value: (draw) => (draw(1, "01") === "0" ? draw(64, hex) : draw(44, b64)),
  },
]

const QUERY_NAMES = ["api_key", "apikey", "token", "access_token", "key", "client_secret", "password"]

/** `db_password` → `DB_PASSWORD`, `dbPassword` → `DbPassword`, for templates that want another case. */
const toUpper = (name: string) =>
  name
    .replace(/([a-z\d])([A-Z])/g, "$1_$2")
    .replace(/[-.]/g, "_")
    .toUpperCase()
const toCamel = (name: string) =>
  /[-_.]/.test(name) ? name.toLowerCase().replace(/[-_.]([a-z\d])/g, (_m, c: string) => c.toUpperCase()) : name
const toPascal = (name: string) => toCamel(name).replace(/^./, (c) => c.toUpperCase())

/** The spelling of the name a template shows, which must still be readable after redaction. */
function shownName(template: string, name: string): string {
  if (template.includes("{n}") || template.includes("{q}")) return name
  if (template.includes("{N}")) return toUpper(name)
  if (template.includes("{c}")) return toCamel(name)
  return template.includes("{P}") ? toPascal(name) : ""
}

export interface ShapeSample extends Sample {
  shape: string
  name: string
}

/** Values a real config holds behind such a name: generated passwords, random keys, hex, base64. */
function secretValue(draw: Draw, i: number, avoid = ""): string {
  const password = [...ALPHABETS.password].filter((c) => !avoid.includes(c)).join("")
  switch (i % 5) {
    case 0:
      return `${draw(1, latin)}${draw([11, 19], password)}${draw(1, digits)}`
    case 1:
      return draw([24, 40])
    case 2:
      return draw(40, hex)
    case 3:
      return draw(40, [...b64].filter((c) => !avoid.includes(c)).join(""))
    default:
      return `${draw(1, latin)}${draw(7, alnum)}${draw(1, digits)}`
  }
}

export function shapeSamples(seed = 7, perTemplate = 6): ShapeSample[] {
  const draw = drawer(seed)
  const samples: ShapeSample[] = []
  for (const shape of SHAPES) {
    const names = shape.styles.flatMap((style) => NAMES[style])
    shape.templates.forEach((template, t) => {
      for (let i = 0; i < perTemplate; i++) {
        const name =
          shape.shape === "query string"
            ? (QUERY_NAMES[i % QUERY_NAMES.length] ?? "")
            : (names[(i * 7 + t * 3) % names.length] ?? "")
        const value =
          shape.value?.(draw) ??
          (shape.shape === ".npmrc" && i % 2 === 0 ? uuid(draw) : secretValue(draw, i + t, shape.avoid))
        const text = template
          .replaceAll("{n}", name)
          .replaceAll("{q}", name)
          .replaceAll("{N}", toUpper(name))
          .replaceAll("{c}", toCamel(name))
          .replaceAll("{P}", toPascal(name))
          .replaceAll(DOLLAR, "$")
          .replaceAll("{s}", value)
        samples.push({ shape: shape.shape, name: shownName(template, name), text, secrets: [value] })
      }
    })
  }
  return samples
}

export interface FormatSample extends Sample {
  inserted: string
  family: string
  format: string
  /** `alone` or `named` */
  context: "alone" | "named"
}

export function formatSamples(formats: readonly Format[], seed = 11, perContext = 2): FormatSample[] {
  const draw = drawer(seed)
  const samples: FormatSample[] = []
  for (const format of formats) {
    const contexts: Array<["alone" | "named", string]> = [
      ...(format.alone ? ALONE_CONTEXTS.map((c): ["alone", string] => ["alone", c]) : []),
      ...(format.name ? NAMED_CONTEXTS.map((c): ["named", string] => ["named", c]) : []),
    ]
    for (const [context, template] of contexts) {
      for (let i = 0; i < perContext; i++) {
        const made = asSample(format.make(draw))
        const text = template.replaceAll("{N}", format.name).replaceAll("{s}", made.text)
        samples.push({
          family: format.family,
          format: format.format,
          context,
          text,
          secrets: made.secrets,
          inserted: made.text,
        })
      }
    }
  }
  return samples
}

export interface Check {
  secrets: readonly string[]
  /** The name that must stay readable. */
  name?: string
  /** What the sample put into the text; lines outside it must come out unchanged. */
  inserted?: string
}

/**
 * Whether redaction did its job: no 8-character run of any secret survives (the whole secret, if shorter),
 * the name is still readable, and every line outside the sample's own text is unchanged.
 */
export function isRedacted(input: string, output: string, check: Check): boolean {
  const { secrets, name = "" } = check
  const inserted = [...secrets, ...(check.inserted ?? "").split("\n")].filter(Boolean)
  for (const secret of secrets) {
    if (!secret) continue
    const width = Math.min(8, secret.length)
    for (let i = 0; i + width <= secret.length; i++) if (output.includes(secret.slice(i, i + width))) return false
  }
  if (name && !output.includes(name)) return false
  const kept = new Set(output.split("\n"))
  return input.split("\n").every((line) => kept.has(line) || inserted.some((part) => line.includes(part)))
}

export interface Tally {
  group: string
  total: number
  redacted: number
  /** Up to three samples that were not redacted, for a failing test to show. */
  missed: string[]
}

/** Redacts every sample and counts, per group, how many came out redacted. */
export function tally<T extends Check & { text: string }>(
  samples: readonly T[],
  redact: (text: string) => string,
  groupOf: (sample: T) => string,
): Tally[] {
  const groups = new Map<string, Tally>()
  for (const sample of samples) {
    const group = groupOf(sample)
    const row = groups.get(group) ?? { group, total: 0, redacted: 0, missed: [] }
    groups.set(group, row)
    row.total++
    if (isRedacted(sample.text, redact(sample.text), sample)) row.redacted++
    else if (row.missed.length < 3) row.missed.push(sample.text)
  }
  return [...groups.values()]
}

/** Lines of `text` that redaction changed, with the line count's change. */
export function changedLines(text: string, redacted: string): number {
  const before = text.split("\n")
  const after = redacted.split("\n")
  let changed = Math.abs(before.length - after.length)
  for (let i = 0; i < Math.min(before.length, after.length); i++) if (before[i] !== after[i]) changed++
  return changed
}

/**
 * The corpora the tests hold to their thresholds and the benchmark prints: seeds and sizes fixed, so both
 * measure the same samples on every run.
 */
export function corpora() {
  return {
    promised: formatSamples(PROMISED_FORMATS, 11, 6),
    vendors: formatSamples(VENDOR_FORMATS, 12, 6),
    extras: formatSamples(EXTRA_FORMATS, 13, 6),
    shapes: shapeSamples(7, 20),
  }
}
