/**
 * One of the processes lock.test.ts races for a data directory's lock: at `startAt` (epoch ms) it takes
 * the lock, prints `won` or `locked`, and a winner holds the lock for `holdMs` before releasing it.
 *   lock-racer.ts <dataDir> <startAt> <holdMs>
 */
import { lockDataDir } from "../../src/driver/data-dir-lock.js";

const [dataDir = "", startAt = "0", holdMs = "0"] = process.argv.slice(2);
while (Date.now() < Number(startAt)) await new Promise((resolve) => setTimeout(resolve, 1));
try {
  const lock = lockDataDir(dataDir);
  process.stdout.write("won\n");
  await new Promise((resolve) => setTimeout(resolve, Number(holdMs)));
  lock.release();
} catch (error) {
  process.stdout.write(`locked ${(error as { code?: string }).code}\n`);
}
