import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/**
 * Reading docs/merchant-api.md in tests (orders/merchant-api.test.ts, payouts/merchant-api-doc.test.ts):
 * the parts after its `<!-- check: name -->` markers, and running the guide's examples.
 */
export const GUIDE = readFileSync(fileURLToPath(new URL('../../../../docs/merchant-api.md', import.meta.url)), 'utf8');

/** The text after `<!-- check: name -->` (the marker must exist exactly once). */
export function after(name: string): string {
  const marker = `<!-- check: ${name} -->\n`;
  const at = GUIDE.indexOf(marker);
  expect(at, `marker ${name}`).toBeGreaterThanOrEqual(0);
  expect(GUIDE.indexOf(marker, at + 1), `marker ${name} twice`).toBe(-1);
  return GUIDE.slice(at + marker.length);
}

/** The fenced code block right after the marker. */
export function code(name: string): string {
  const m = /^```[^\n]*\n([\s\S]*?)\n```/.exec(after(name));
  if (!m) throw new Error(`no code block after ${name}`);
  return m[1]!;
}

/** The rows of the markdown table right after the marker, as cells without backticks. */
export function rows(name: string): string[][] {
  const lines = after(name).split('\n');
  const table = lines.slice(
    0,
    lines.findIndex((l) => !l.startsWith('|')),
  );
  return table.slice(2).map((l) =>
    l
      .slice(1, -1)
      .split(' | ')
      .map((c) => c.trim().replace(/^`|`$/g, '')),
  );
}

/** A two-column table of parameters and values as an object. */
export const paramsOf = (name: string) => Object.fromEntries(rows(name).map(([k, v]) => [k!, v!]));

/** Section 3's example in a language up to its parameters: its signing functions, which later examples use. */
export function signingPart(name: string, paramsStart: string): string {
  const snippet = code(name);
  expect(snippet, name).toContain(paramsStart);
  return snippet.slice(0, snippet.indexOf(paramsStart));
}

/** Whether a tool (python3, java, php, openssl) is on this machine. */
export const has = (tool: string) => spawnSync(tool, ['--version'], { stdio: 'ignore' }).error === undefined;

/** Runs a command in `cwd`; a non-zero exit fails with its stderr. */
export function run(cwd: string, cmd: string, args: string[], input?: string) {
  const res = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 60_000, input });
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${res.stderr}`);
  return { stdout: res.stdout, stderr: res.stderr };
}
