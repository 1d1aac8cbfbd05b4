import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["tests/unit/**/*.test.ts", "tests/api/**/*.test.ts", "tests/e2e/**/*.test.ts"],
    testTimeout: 60_000,
    // Password hashing at OWASP cost takes ~0.3 s; tests use a low cost (each hash records its own).
    env: { SCRYPT_N: "1024" },
  },
});
