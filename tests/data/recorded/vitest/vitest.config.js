import { defineConfig, configDefaults } from "vitest/config";
export default defineConfig({
  test: {
    setupFiles: ["./tests/setup.js"],
    forceRerunTriggers: [...configDefaults.forceRerunTriggers, "**/fixtures/**"],
  },
});
