/**
 * Secret shapes that no rule had read before: one class each, with the secret that must go, and the
 * never-secret lines beside them that must stay as they are. Written here from what public documentation shows
 * of each shape (named per class); every value is made up, none is anyone's key.
 */

export interface UnseenClass {
  name: string
  /** A line and the secret in it. */
  positives: ReadonlyArray<readonly [string, string]>
  /** Lines that hold no secret and must come back unchanged. */
  negatives: readonly string[]
}

export const UNSEEN_CLASSES: readonly UnseenClass[] = [
  {
    // Keys whose prefix names the vendor, standing alone, as their vendors' API documentation writes them:
    // Render (`rnd_`), Tavily (`tvly-`), Replicate (`r8_`), NVIDIA's API catalog (`nvapi-`), LangSmith
    // (`lsv2_pt_`), Pinecone (`pcsk_`), Supabase's access tokens (`sbp_`), PostHog's personal keys (`phx_`),
    // xAI (`xai-`), Firecrawl (`fc-`), OpenRouter (`sk-or-v1-`).
    name: "vendor-like prefixed tokens",
    positives: [
      ["rnd_Qm7vT2kLp9XwR4zN8bYc3HdF6sJe1GaU", "rnd_Qm7vT2kLp9XwR4zN8bYc3HdF6sJe1GaU"],
      ["export TAVILY=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", "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"],
      ["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", "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"],
      ["r8_Gx7Lq2Mv9Pt4Rz8Ny3Kb6Hd1Sf5Wj0Ce2UaQb", "r8_Gx7Lq2Mv9Pt4Rz8Ny3Kb6Hd1Sf5Wj0Ce2UaQb"],
      [
        "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",
        "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",
      ],
      [
        "LANGSMITH: 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",
        "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",
      ],
      [
        "pcsk_4Tz9Qe_Kq3Lm9Xv2Rp7Wn4Yb6Cd1Hf5Gs0JeUa2Mk8Qt3Lv9Zx4Rn7Wp1Yb6Cd5Hf0Gs",
        "pcsk_4Tz9Qe_Kq3Lm9Xv2Rp7Wn4Yb6Cd1Hf5Gs0JeUa2Mk8Qt3Lv9Zx4Rn7Wp1Yb6Cd5Hf0Gs",
      ],
      ["sbp_3f9a2c7e1b5d8f0a4c6e2b9d7f1a3c5e8b0d2f4a", "sbp_3f9a2c7e1b5d8f0a4c6e2b9d7f1a3c5e8b0d2f4a"],
      ["phx_Vb8Kq2Lm7Xt4Rn9Wz3Yc6Hd1Gf5Sj0EuAa", "phx_Vb8Kq2Lm7Xt4Rn9Wz3Yc6Hd1Gf5Sj0EuAa"],
      [
        "xai-Qz8Lm3Kv9Tx2Rp7Wn4Yb6Cd1Hf5Gs0JeUa2Mk8Qt3Lv9Zx4Rn7Wp1Yb6Cd5Hf0GsJe3UaBq7Nx2",
        "xai-Qz8Lm3Kv9Tx2Rp7Wn4Yb6Cd1Hf5Gs0JeUa2Mk8Qt3Lv9Zx4Rn7Wp1Yb6Cd5Hf0GsJe3UaBq7Nx2",
      ],
      ["fc-7e3b9a1d5c8f2e4a6b0d9c7e1f3a5b8d", "fc-7e3b9a1d5c8f2e4a6b0d9c7e1f3a5b8d"],
      [
        "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",
        "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",
      ],
    ],
    negatives: [
      "test_handle_request_with_timeout_and_retry",
      "sha256_3f5a9c2e1b7d54a6c8e0f2b4d6a8c0e2f1a3b5c7d9e1f3a5b7c9d1e3f5a7b9c1",
      "btn-primary-outline-large-disabled-state",
      "cus_NffrFeUfNV2Hib",
      "my_variable_name_2024_final_version_v2",
      "chunk-vendors.2f9a1c3e.js",
    ],
  },
  {
    // Values under names that say nothing of a secret: a service's name as the key (Rails' encrypted
    // credentials, as the Postmark and Rails guides show them: `postmark:` then its token), and C headers that
    // define an account key (Adafruit IO's Arduino examples keep `#define IO_KEY "…"` in config.h).
    name: "values under unknown names",
    positives: [
      ['postmark: "b8e4c2a1-9f3d-4e7a-8b6c-2d1f0e9a7c35"', "b8e4c2a1-9f3d-4e7a-8b6c-2d1f0e9a7c35"],
      ["  postmark: 7c1e5a9b-3d2f-4b8e-a6c0-9f1d3e5b7a20", "7c1e5a9b-3d2f-4b8e-a6c0-9f1d3e5b7a20"],
      ['sendgrid: "Zq8Wm2Lp5Tn9Rb3Vc7Xd1Fh4Gj6Kk0MsAa2"', "Zq8Wm2Lp5Tn9Rb3Vc7Xd1Fh4Gj6Kk0MsAa2"],
      ['mailgun: "3e9b1d7f5a2c8e4b6d0f9a1c3e5b7d92"', "3e9b1d7f5a2c8e4b6d0f9a1c3e5b7d92"],
      ['#define IO_KEY "aio_Fk3j29sLq0Wm8Zp4Rt7Yx1Nv5Bc6"', "aio_Fk3j29sLq0Wm8Zp4Rt7Yx1Nv5Bc6"],
      ['#define IO_KEY       "8f2c4a6e1b3d5f7a9c0e2b4d6f8a1c3e"', "8f2c4a6e1b3d5f7a9c0e2b4d6f8a1c3e"],
      ['#define BLYNK_AUTH_TOKEN "Xy7Lq2Mv9Pt4Rz8Ny3Kb6Hd1Sf5Wj0Ce"', "Xy7Lq2Mv9Pt4Rz8Ny3Kb6Hd1Sf5Wj0Ce"],
      ['#define THINGSPEAK_KEY "Q7ZK3M9TX2RP4WN8"', "Q7ZK3M9TX2RP4WN8"],
    ],
    negatives: [
      "postmark:",
      'postmark: "~> 1.25"',
      "sendgrid: true",
      '#define IO_USERNAME "maker_jane"',
      "#define KEY_ESC 0x1B",
      "#define IO_KEY_LENGTH 32",
      "mailgun: https://api.mailgun.net/v3",
    ],
  },
  {
    // Command lines that take a secret as a plain argument: HashiCorp Vault's `vault operator unseal` (its
    // command reference), Sysinternals PsExec's `-p` password, and the CSRF crumb header Jenkins' remote access
    // API asks scripts to send (`Jenkins-Crumb:`).
    name: "command lines",
    positives: [
      ["vault operator unseal AbCdEf1234567890GhIjKlMnOpQrStUvWxYz+/ab=", "AbCdEf1234567890GhIjKlMnOpQrStUvWxYz+/ab="],
      [
        "$ vault operator unseal 'q9Zx2Lm7Rt4Wv8Yb3Nc6Hd1Gf5Sj0EuAk+Pa3Ty='",
        "q9Zx2Lm7Rt4Wv8Yb3Nc6Hd1Gf5Sj0EuAk+Pa3Ty=",
      ],
      [
        "vault operator unseal -address=https://vault.local:8200 Wq3Ez8Rt5Yu2Io7Pa9Sd4Fg1Hj6Kl0Zx+Cv3Bn=",
        "Wq3Ez8Rt5Yu2Io7Pa9Sd4Fg1Hj6Kl0Zx+Cv3Bn=",
      ],
      ["psexec \\\\web01 -u Administrator -p S3cr3tP@ss cmd.exe", "S3cr3tP@ss"],
      ["PsExec64.exe \\\\10.0.0.5 -u corp\\svc -p Winter2024! ipconfig", "Winter2024!"],
      [
        'curl -X POST -H "Jenkins-Crumb: 4f9e2d1c8b7a6f5e4d3c2b1a0f9e8d7c" https://ci.example.com/job/build/build',
        "4f9e2d1c8b7a6f5e4d3c2b1a0f9e8d7c",
      ],
      [
        "Jenkins-Crumb: 7b2e9d4a1f6c3e8b5d0a7f2c9e4b1d6a3f8c5e0b7d2a9f4c1e6b3d8a5f0c7e2b",
        "7b2e9d4a1f6c3e8b5d0a7f2c9e4b1d6a3f8c5e0b7d2a9f4c1e6b3d8a5f0c7e2b",
      ],
      [
        '{"crumbRequestField":"Jenkins-Crumb","crumb":"a3c5e7b9d1f2a4c6e8b0d2f4a6c8e0b2"}',
        "a3c5e7b9d1f2a4c6e8b0d2f4a6c8e0b2",
      ],
    ],
    negatives: [
      "vault operator unseal -reset",
      "vault operator unseal",
      "vault operator unseal -migrate",
      "psexec \\\\web01 -s cmd.exe",
      "psexec -p -h",
      'curl -H "Jenkins-Crumb: $CRUMB" https://ci.example.com/job/build/build',
      "Jenkins-Crumb:",
    ],
  },
  {
    // Tokens carried in a URL's path: Discord's and Zapier's webhook URLs (as their developer docs show), and
    // APIs that take the key as a path segment (a keyed endpoint `…/v1/<key>/…`).
    name: "tokens in a URL's path",
    positives: [
      [
        "https://discord.com/api/webhooks/112233445566778899/Xk9vQ2mL8pR4tY7wZ1aB3cD5eF6gH0jK-lMnOpQrStUvWxYz123456789AbCdEfGh",
        "Xk9vQ2mL8pR4tY7wZ1aB3cD5eF6gH0jK-lMnOpQrStUvWxYz123456789AbCdEfGh",
      ],
      ["https://api.example.com/v1/Zk8Qw3Er5Ty7Ui9Op1As2Df4Gh6Jk8Lz/status", "Zk8Qw3Er5Ty7Ui9Op1As2Df4Gh6Jk8Lz"],
      [
        "POST https://notify.example.net/hook/Wb7Nc2Xd9Ve4Fr6Gt1Hy3Ju8Ki5Lo0Pa/send",
        "Wb7Nc2Xd9Ve4Fr6Gt1Hy3Ju8Ki5Lo0Pa",
      ],
      ["curl https://api.example.io/keys/Q2w9E4r7T1y5U8i3O6p0AsDfGhJkLz/", "Q2w9E4r7T1y5U8i3O6p0AsDfGhJkLz"],
      ["fetch('https://hooks.example.com/t/Mv3Nb8Vc1Xz6Lk4Jh9Gf2Ds7Ap5Qw0Er')", "Mv3Nb8Vc1Xz6Lk4Jh9Gf2Ds7Ap5Qw0Er"],
    ],
    negatives: [
      "https://github.com/owner/repo/commit/3f5a9c2e1b7d54a6c8e0f2b4d6a8c0e2f1a3b5c7",
      "https://developer.mozilla.org/en-US/docs/Web/API/ReadableStreamDefaultReader",
      "https://example.com/articles/HowToConfigureYourFirstServerInTenMinutes",
      "https://cdn.example.com/assets/app.3f5a9c2e1b7d54a6.js",
      "https://registry.npmjs.org/@scope/package/-/package-1.2.3.tgz",
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ",
      "https://example.com/users/1234567/posts/987654/comments",
    ],
  },
  {
    // ODBC and ADO.NET connection strings as Microsoft's connection-string documentation writes them, with
    // spaces around `=` and characters such as `&` and `#` in the password.
    name: "connection strings with spaces",
    positives: [
      ["Server=tcp:db.example.com,1433; Database=shop; User Id=sa; Password = Tr0ub4dor&3;", "Tr0ub4dor&3"],
      ["Driver={ODBC Driver 18 for SQL Server}; Server = myserver; Uid = admin; Pwd = s3cr3t!Pass;", "s3cr3t!Pass"],
      [
        "Provider=SQLOLEDB; Data Source = srv01; Initial Catalog = Sales; User ID = app; Password = Gr33nTea#42;",
        "Gr33nTea#42",
      ],
      ['"ConnectionString": "Data Source = db01; User Id = web; Password = Qx7&Lm2#Rt9;"', "Qx7&Lm2#Rt9"],
      ["DSN=Payroll; UID = clerk; PWD = Bl4ck&Wh1te;", "Bl4ck&Wh1te"],
    ],
    negatives: [
      "Server = myserver; Database = Sales; Integrated Security = SSPI;",
      "Server=tcp:db.example.com,1433; Database=shop; Trusted_Connection=yes;",
      "Data Source = srv01; Initial Catalog = Sales; User ID = app;",
      "Driver={ODBC Driver 18 for SQL Server}; Server = myserver; Authentication = ActiveDirectoryInteractive;",
    ],
  },
  {
    // JSON-RPC calls that carry a passphrase or key in `params`: Ethereum clients' `personal_*` methods (Geth's
    // management API docs) and Bitcoin Core's wallet RPCs (`walletpassphrase`, `importprivkey`).
    name: "JSON-RPC params",
    positives: [
      [
        '{"jsonrpc":"2.0","method":"personal_unlockAccount","params":["0x7f3a2b1c9d8e4f5a6b7c8d9e0f1a2b3c4d5e6f7a","hunter2isnotsafe",300],"id":1}',
        "hunter2isnotsafe",
      ],
      [
        '{"jsonrpc": "1.0", "id": "curltest", "method": "walletpassphrase", "params": ["my pass phrase", 60]}',
        "my pass phrase",
      ],
      [
        '{"jsonrpc":"2.0","method":"personal_importRawKey","params":["4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318","s3cretPass"],"id":1}',
        "4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318",
      ],
      ['{"method":"personal_newAccount","params":["Gl4ssOnion!"],"id":7,"jsonrpc":"2.0"}', "Gl4ssOnion!"],
      [
        '{"jsonrpc":"1.0","method":"importprivkey","params":["L1aW4aubDFB7yfras2S1mN3bqg9nwySY8nkoLmJebSLD5BWv3ENZ","imported"]}',
        "L1aW4aubDFB7yfras2S1mN3bqg9nwySY8nkoLmJebSLD5BWv3ENZ",
      ],
      ['{"jsonrpc":"1.0","method":"walletpassphrasechange","params":["0ldPhr4se!","N3wPhr4se?"]}', "N3wPhr4se?"],
    ],
    negatives: [
      '{"jsonrpc":"2.0","method":"eth_getBalance","params":["0x7f3a2b1c9d8e4f5a6b7c8d9e0f1a2b3c4d5e6f7a","latest"],"id":1}',
      '{"jsonrpc":"2.0","method":"personal_listAccounts","params":[],"id":1}',
      '{"jsonrpc": "1.0", "method": "getblockcount", "params": []}',
      '{"jsonrpc":"2.0","method":"personal_lockAccount","params":["0x7f3a2b1c9d8e4f5a6b7c8d9e0f1a2b3c4d5e6f7a"],"id":1}',
    ],
  },
  {
    // Prose that states a password, as appliance and router manuals and READMEs put it.
    name: "prose",
    positives: [
      ["The default password is 'Sup3rS3cret!'.", "Sup3rS3cret!"],
      ['The default password is "admin123" and should be changed after the first login.', "admin123"],
      ["the password is `T0p-S3cret` for the demo box.", "T0p-S3cret"],
      ["Log in as root; the initial password is 'Qw3rty#2024'.", "Qw3rty#2024"],
      ['Its default admin password is "Rout3r!Adm1n".', "Rout3r!Adm1n"],
    ],
    negatives: [
      "The default password is stored in the keychain.",
      "The password is required.",
      "The default password is the serial number printed on the label.",
      "Make sure the password is 'strong' enough.",
      "The password is `$DB_PASSWORD` from the environment.",
    ],
  },
  {
    // Never-secret C beside the names: casts and pointer arithmetic assigned to `pwd`, `pass`, `password`
    // (code of the kind found in libc's getpwent and in base64 and URL parsers).
    name: "casts and pointer arithmetic",
    positives: [],
    negatives: [
      "pwd = (char *) (p + ulen + 2);",
      "pass = (const char *) buf + 4;",
      "password = *(char **) argv;",
      "token = (struct token *) malloc(sizeof(*token));",
      "secret = (uint8_t *) (key + 16);",
      "passwd = (struct passwd *) &pwbuf;",
    ],
  },
]

/**
 * Whether a secret is gone from what redaction gave back: no run of four of its characters is left that the
 * text around it does not hold as often (`&3` left of `Tr0ub4dor&3` is not gone; `Password = ` is context).
 */
export function secretGone(secret: string, output: string, text: string): boolean {
  const context = text.replaceAll(secret, "\u0000")
  const count = (haystack: string, needle: string) => haystack.split(needle).length - 1
  const width = Math.min(4, secret.length)
  for (let i = 0; i + width <= secret.length; i++) {
    const run = secret.slice(i, i + width)
    if (count(output, run) > count(context, run)) return false
  }
  return true
}
