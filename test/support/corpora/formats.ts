/**
 * Tokens that fill a vendor's published format (prefix, length, alphabet) with a body that reads as a stand-in
 * or has little entropy, which redaction takes as they stand; and, beside them, what is plainly no value and
 * stays. Written here after the placeholders vendors' own documentation and sample configs print (named per
 * line); none is anyone's key.
 */

import type { UnseenClass } from "./unseen.ts"

const x = (n: number) => "x".repeat(n)
const X = (n: number) => "X".repeat(n)

export const FORMAT_CLASSES: readonly UnseenClass[] = [
  {
    name: "a vendor's format with a stand-in's body",
    positives: [
      // GitHub: a prefix and 36 characters (its token-format announcement); x's, a three-character cycle.
      [`GITHUB_TOKEN=ghp_${x(36)}`, `ghp_${x(36)}`],
      [`token: ghp_${"Ab3".repeat(12)}`, `ghp_${"Ab3".repeat(12)}`],
      [`gh auth login --with-token <<< gho_${X(36)}`, `gho_${X(36)}`],
      [`GITHUB_PAT=github_pat_${X(22)}_${X(59)}`, `github_pat_${X(22)}_${X(59)}`],
      // AWS's documented example access key id, as the CLI's configuration guide prints it.
      ["aws_access_key_id = AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"],
      ["export AWS_ACCESS_KEY_ID=AKIAI44QH8DHBEXAMPLE", "AKIAI44QH8DHBEXAMPLE"],
      // Stripe: `sk_test_` and 24 characters in its older keys; a webhook secret `whsec_` and 32.
      [`STRIPE_SECRET_KEY=sk_test_${x(24)}`, `sk_test_${x(24)}`],
      [`STRIPE_WEBHOOK_SECRET=whsec_${x(32)}`, `whsec_${x(32)}`],
      // GitLab: personal and runner registration tokens of their fixed lengths.
      [`GITLAB_TOKEN=glpat-${x(20)}`, `glpat-${x(20)}`],
      [`Runner registration token: GR1348941${X(20)}`, `GR1348941${X(20)}`],
      // Slack's own incoming-webhook placeholder: team and channel ids of zeros, a key of X's.
      [
        `SLACK_WEBHOOK_URL=https://hooks.slack.com/services/T00000000/B00000000/${X(24)}`,
        `T00000000/B00000000/${X(24)}`,
      ],
      // Hugging Face: `hf_` and 34 letters, as its hub docs write the placeholder.
      [`HF_TOKEN="hf_${x(34)}"`, `hf_${x(34)}`],
      // npm: `npm_` and 36 characters in an .npmrc.
      [`//registry.npmjs.org/:_authToken=npm_${x(36)}`, `npm_${x(36)}`],
      // SendGrid: `SG.`, 22, `.`, 43.
      [`SENDGRID_API_KEY=SG.${x(22)}.${x(43)}`, `SG.${x(22)}.${x(43)}`],
      // Groq `gsk_` and 52; Docker Hub `dckr_pat_` and 27; Google API keys `AIza` and 35.
      [`GROQ_API_KEY=gsk_${x(52)}`, `gsk_${x(52)}`],
      [`docker login -u ci --password dckr_pat_${X(27)}`, `dckr_pat_${X(27)}`],
      [`"apiKey": "AIzaSy${X(33)}"`, `AIzaSy${X(33)}`],
      // One digit or a counting block in a hex format: DigitalOcean, Sentry's user tokens, Databricks.
      [`DIGITALOCEAN_TOKEN=dop_v1_${"0".repeat(64)}`, `dop_v1_${"0".repeat(64)}`],
      [`SENTRY_AUTH_TOKEN=sntryu_${"0123456789abcdef".repeat(4)}`, `sntryu_${"0123456789abcdef".repeat(4)}`],
      [
        `host = https://adb-1.azuredatabricks.net\ntoken = dapi${"1234567890ab".repeat(2)}12345678`,
        `dapi${"1234567890ab".repeat(2)}12345678`,
      ],
      // Twilio's console and docs print an API key's SID and an account's as the prefix and 32 x's.
      [`TWILIO_API_KEY=SK${x(32)}`, `SK${x(32)}`],
      [`TWILIO_ACCOUNT_SID=AC${x(32)}`, `AC${x(32)}`],
      // JFrog's keys as the scanners' rules find them: `AKC` and 10 or more, `AP`, a hex digit and 8 or more.
      [`artifactory_api_key: AKC${x(10)}`, `AKC${x(10)}`],
      [`password = AP6${x(10)}`, `AP6${x(10)}`],
      // Telling words filling the format: `EXAMPLE` in a Linear key of 40, `sample` in an Anthropic key.
      [`LINEAR_API_KEY=lin_api_${X(33)}EXAMPLE`, `lin_api_${X(33)}EXAMPLE`],
      [`ANTHROPIC_API_KEY=sk-ant-api03-sample${"A".repeat(87)}AA`, `sk-ant-api03-sample${"A".repeat(87)}AA`],
    ],
    negatives: [],
  },
  {
    // What the vendors' docs write where no value is meant: an ellipsis or a cut, a mask, a name in brackets or
    // braces, a reference, a prefix alone in prose.
    name: "no value in a vendor's place",
    positives: [],
    negatives: [
      "GITHUB_TOKEN=ghp_...",
      "export OPENAI_API_KEY=sk-…",
      "token: ghp_1a2b…",
      `ghp_1a2b3c4d${"*".repeat(32)}`,
      "xoxb-…-####",
      "GITHUB_TOKEN=<YOUR_GITHUB_TOKEN>",
      "ghp_<your-token-here>",
      "STRIPE_SECRET_KEY=sk_test_<your-key>",
      `GITHUB_TOKEN=${"$"}{GITHUB_TOKEN}`,
      "NPM_TOKEN=$NPM_TOKEN",
      `token: ${"$"}{{ secrets.GITHUB_TOKEN }}`,
      "//registry.npmjs.org/:_authToken={{ npm_token }}",
      "set GITHUB_TOKEN=%GITHUB_TOKEN%",
      "apiKey: process.env.STRIPE_SECRET_KEY,",
      "Classic tokens start with ghp_, OAuth tokens with gho_, fine-grained ones with github_pat_.",
      "Secret keys look like sk_live_ followed by random characters; AKIA starts an access key id.",
    ],
  },
  {
    // A vendor's prefix with a stand-in that is not of its format: too short for it (detect-secrets' `npm_` and
    // eleven x's), or outside its alphabet (x is no hex digit, and Twilio's keys are `SK` and 32 hex).
    name: "a stand-in beside a vendor's format",
    positives: [],
    negatives: [
      `NPM_TOKEN=npm_${x(11)}`,
      `ghp_${x(20)}`,
      `TWILIO_API_KEY=SK${x(31)}`,
      `sk_live_${x(12)}`,
      // Names in code that open as JFrog's keys do: words after `AP` and a hex letter, a constant in capitals.
      "const handler = new APBootstrapLoader(config)",
      "APEnvironmentList.forEach(render)",
      "See the APACHE2LICENSE file.",
    ],
  },
]
