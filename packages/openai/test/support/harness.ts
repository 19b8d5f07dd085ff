/** Shared set-up for the generator tests: a fresh fake server per test and a clean environment. */
import { getDefaultLogger, MemoryLogger, setDefaultLogger } from "@junction/core";
import { afterEach, beforeEach, vi } from "vitest";
import { type FakeOpenAIServer, startFakeOpenAIServer } from "./fake-openai-server.js";

/** The fake key tests use; assertions check it never leaks. */
export const TEST_KEY = "sk-test-0123456789abcdefSECRET";

/** What each test gets. */
export interface Harness {
  server: FakeOpenAIServer;
  logger: MemoryLogger;
  /** The default logger (where the SDK's own messages go). */
  sdkLogger: MemoryLogger;
}

/** Sets OPENAI_API_KEY to `key` and clears the other OPENAI_* variables the SDK reads (undone by `vi.unstubAllEnvs`). */
export function stubOpenAIEnv(key: string): void {
  vi.stubEnv("OPENAI_API_KEY", key);
  for (const name of [
    "OPENAI_BASE_URL",
    "OPENAI_TIMEOUT",
    "OPENAI_MAX_RETRIES",
    "OPENAI_ORG_ID",
    "OPENAI_LOG",
  ]) {
    vi.stubEnv(name, undefined);
  }
}

/**
 * Starts a fake server before each test and stops it after; sets OPENAI_API_KEY to {@link TEST_KEY} and
 * clears OPENAI_BASE_URL, OPENAI_TIMEOUT, OPENAI_MAX_RETRIES and OPENAI_ORG_ID.
 */
export function useHarness(): Harness {
  const harness = {} as Harness;
  let previousLogger = getDefaultLogger();
  beforeEach(async () => {
    stubOpenAIEnv(TEST_KEY);
    harness.server = await startFakeOpenAIServer();
    harness.logger = new MemoryLogger();
    harness.sdkLogger = new MemoryLogger();
    previousLogger = getDefaultLogger();
    setDefaultLogger(harness.sdkLogger);
  });
  afterEach(async () => {
    setDefaultLogger(previousLogger);
    vi.unstubAllEnvs();
    await harness.server.close();
  });
  return harness;
}
