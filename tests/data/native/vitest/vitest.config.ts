// vitest.config.ts
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts'],
    server: {
      deps: { inline: [/@ledger\/ui/] },
    },
    // config-class changes escalate to a full suite (seed 000's template)
    forceRerunTriggers: [
      '**/package-lock.json', '**/pnpm-lock.yaml', '**/vitest.config.*',
      '**/vite.config.*', '**/playwright.config.*', 'src/test-utils/**',
      '**/.env*', 'migrations/**',
    ],
  },
})
