/**
 * What every script shares: `--help`, strict options, one-line JSON errors instead of stack traces, paths
 * relative to the folder the user ran npm in, and a clear word when the `npm start` stack is not there.
 *
 *   await runScript({ usage, options: { out: 'string' }, run: async ({ values, positionals }) => { ... } });
 */
import { Socket } from 'node:net';
import { isAbsolute, resolve } from 'node:path';
import { useLocalStackDefaults } from './local-defaults.ts';

/** A mistake in how the script was called, or a refusal the user can act on: printed as it is. */
export class UsageError extends Error {}

export type OptionTypes = Record<string, 'string' | 'boolean'>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Script {
  /** printed for --help: how to call it, its options, and what it writes */
  usage: string;
  options: OptionTypes;
  run(args: ParsedArgs): Promise<void>;
}

export const NOT_RUNNING_HINT = 'is `npm start` running (and with the same ports)?';

/**
 * `--name value`, `--name=value` and `--flag`. A value is taken as it is, even when it starts with '-'
 * (API keys are base64url). A bare `--` is skipped: `npm run x -- --a 1 -- --b 2` passes the second one through.
 */
export function parseOptions(argv: readonly string[], options: OptionTypes): ParsedArgs {
  const parsed: ParsedArgs = { values: {}, positionals: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') continue;
    if (arg === '--help' || arg === '-h') {
      parsed.values.help = true;
      continue;
    }
    if (!arg.startsWith('-') || arg === '-') {
      parsed.positionals.push(arg);
      continue;
    }
    const [name = '', inline] = arg.replace(/^--?/, '').split(/=(.*)/s);
    const type = options[name];
    if (!arg.startsWith('--') || !type) throw new UsageError(`${arg.split('=')[0]} is not an option; see --help`);
    if (type === 'boolean') {
      if (inline !== undefined) throw new UsageError(`--${name} takes no value`);
      parsed.values[name] = true;
      continue;
    }
    const value = inline ?? argv[++i];
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    parsed.values[name] = value;
  }
  return parsed;
}

/** A path the user typed, against the folder they ran npm in (npm runs scripts at the package root). */
export function userPath(path: string): string {
  return isAbsolute(path) ? path : resolve(process.env.INIT_CWD ?? process.cwd(), path);
}

/** What a script that wrote a file prints; a file kept in git says so, since the change shows up in `git status`. */
export function writtenNote(file: string, trackedInGit: boolean): string {
  return trackedInGit ? `wrote ${file} (kept in git: review with git diff, undo with git checkout -- ${file})` : `wrote ${file}`;
}

/** The `npm start` stack's defaults, after checking that its DynamoDB Local and S3 answer. */
export async function useLocalStack(): Promise<void> {
  useLocalStackDefaults();
  for (const [what, endpoint] of [
    ['DynamoDB Local', process.env.DYNAMODB_ENDPOINT],
    ['S3 (s3rver)', process.env.S3_ENDPOINT],
  ] as const) {
    const url = new URL(endpoint as string);
    if (!(await canConnect(url.hostname, Number(url.port))))
      throw new UsageError(`nothing answers at ${endpoint} (${what}): ${NOT_RUNNING_HINT}`);
  }
}

function canConnect(host: string, port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = new Socket();
    socket.setTimeout(2000, () => {
      socket.destroy();
      done(false);
    });
    socket.once('connect', () => {
      socket.destroy();
      done(true);
    });
    socket.once('error', () => done(false));
    socket.connect(port, host);
  });
}

/** The one line a failure prints: the message for what the user can act on, never a stack trace. */
export function describeFailure(error: unknown): string {
  if (error instanceof UsageError) return error.message;
  if (refusedConnection(error)) return `a local service refused the connection: ${NOT_RUNNING_HINT}`;
  const message = error instanceof Error ? error.message : String(error);
  // Typed service errors (Conflict, NotFound...) carry a status and say what was wrong in their message.
  return error instanceof Error && 'status' in error ? message : `failed: ${message.split('\n')[0]}`;
}

function refusedConnection(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if ((error as { code?: string }).code === 'ECONNREFUSED') return true;
  if (error instanceof AggregateError && error.errors.some(refusedConnection)) return true;
  return refusedConnection(error.cause);
}

/** Prints one JSON error line on stderr and exits 1. */
export function fail(error: unknown): never {
  process.stderr.write(`${JSON.stringify({ error: describeFailure(error) })}\n`);
  process.exit(1);
}

/** Parses the arguments, answers --help, runs the script and turns any failure into one line and exit code 1. */
export async function runScript(script: Script, argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  try {
    const args = parseOptions(argv, script.options);
    if (args.values.help) {
      process.stdout.write(`${script.usage.trim()}\n`);
      process.exit(0);
    }
    await script.run(args);
  } catch (error) {
    fail(error);
  }
  // The AWS clients keep sockets open; a script is done when its work is.
  process.exit(process.exitCode ?? 0);
}

/** The option's value as text, or a usage error naming it. */
export function requiredOption(values: ParsedArgs['values'], name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value.trim();
}
