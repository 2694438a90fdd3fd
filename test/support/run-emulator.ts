/**
 * Starts an API emulator in this process and prints its URL: for tests that need handlers with an
 * environment of their own (a dependency that never answers, a short function timeout).
 */
import { startApiEmulator } from '../../local/api-emulator.ts';
import { freePort } from '../../local/ports.ts';

const functionTimeoutMs = Number(process.env.EMULATOR_FUNCTION_TIMEOUT_MS) || undefined;
const emulator = await startApiEmulator({ port: await freePort(), functionTimeoutMs });
process.stdout.write(`${emulator.url}\n`);
