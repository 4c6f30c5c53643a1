import { defineConfig, globalIgnores } from "eslint/config";
import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import prettier from "eslint-config-prettier/flat";
import i18next from "eslint-plugin-i18next";
import tseslint from "typescript-eslint";

// Literal text that is not a word to translate: the product's name and the platform's field names.
const ALLOWED_LITERALS = [
  "Paydesk",
  "traceID",
  "idTransactionMerchant",
  "x-request-id",
  "USDT",
  "JSON",
  "CSV",
  "XLSX",
  "PDF",
];

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  prettier,
  globalIgnores([
    ".next/**",
    ".data/**",
    ".mutation/**",
    "lib/generated/**",
    "node_modules/**",
    "next-env.d.ts",
    "test-results/**",
    "playwright-report/**",
  ]),
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { "@typescript-eslint": tseslint.plugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: { attributes: false } }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    // Every word a user reads comes from the catalogs (messages/ru, messages/en): no literal text in JSX
    // or in the attributes people read. Not words, and so allowed: numbers, punctuation, codes in
    // capitals (RUB, SBP), and the names in ALLOWED_LITERALS.
    files: ["app/**/*.tsx", "components/**/*.tsx"],
    plugins: { i18next },
    rules: {
      "i18next/no-literal-string": [
        "error",
        {
          mode: "jsx-only",
          "jsx-attributes": {
            include: [
              "placeholder",
              "title",
              "alt",
              "aria-label",
              "aria-description",
              "label",
              "hint",
              "legend",
            ],
            exclude: [],
          },
          words: {
            exclude: ["[0-9!-/:-@[-`{-~\\s·—–…→←↑↓×✓✗•▾▸]+", "[A-Z0-9_-]+", ...ALLOWED_LITERALS],
          },
          message: "User-visible text comes from the catalogs: add the key to messages/ru and messages/en",
        },
      ],
    },
  },
  {
    files: ["app/**", "lib/**", "components/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            { group: ["**/sandbox/**", "@/sandbox/**"], message: "app/ and lib/ never import the sandbox." },
          ],
        },
      ],
    },
  },
]);
