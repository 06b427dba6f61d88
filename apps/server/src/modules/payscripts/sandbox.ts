import releaseSync from '@jitl/quickjs-wasmfile-release-sync';
import { PAY_SCRIPT_LIMITS, type PayScriptFetch } from '@paydesk/contract';
import {
  newQuickJSWASMModuleFromVariant,
  type QuickJSDeferredPromise,
  type QuickJSHandle,
  type QuickJSSyncVariant,
} from 'quickjs-emscripten-core';
import { ScriptFetchError, type ScriptFetcher, type ScriptRequest } from './script-fetch.js';

/**
 * The release build of QuickJS (its .wasm ships in the npm package). Its types are written as CommonJS,
 * so under NodeNext the default import reads as the module object; at run time (ESM) it is the variant.
 */
const variant = releaseSync as unknown as QuickJSSyncVariant;

export type SandboxLimits = { -readonly [K in keyof typeof PAY_SCRIPT_LIMITS]: number };

/** One run: the code, the global function to call with `arg`, and the hosts its fetch may reach. */
export interface SandboxRun {
  code: string;
  fn: string;
  arg: unknown;
  hosts: readonly string[];
}

export type SandboxOutcome = ({ ok: true; value: unknown; error: null } | { ok: false; value: null; error: string }) & {
  durationMs: number;
  fetches: PayScriptFetch[];
  logs: string[];
};

/**
 * Set up inside every context before the script: `fetch` over the host's bridge (JSON both ways, a
 * Response-like answer), `console.log` into the run's log, and the runner the host calls. The bridge
 * and the runner are taken off the global object before the script runs, so it sees only `fetch`
 * and `console`; QuickJS itself has no require, process, file system or timers.
 */
const PRELUDE = `(() => {
  const hostFetch = globalThis.__hostFetch;
  const hostLog = globalThis.__hostLog;
  delete globalThis.__hostFetch;
  delete globalThis.__hostLog;
  const text = (v) => {
    if (typeof v === 'string') return v;
    try { return JSON.stringify(v); } catch { return String(v); }
  };
  globalThis.console = { log: (...args) => hostLog(args.map(text).join(' ')) };
  globalThis.fetch = async (url, init) => {
    const i = init || {};
    const answer = JSON.parse(await hostFetch(String(url), JSON.stringify({
      method: i.method === undefined ? 'GET' : String(i.method),
      headers: i.headers || {},
      body: i.body === undefined || i.body === null ? null : String(i.body),
    })));
    return {
      status: answer.status,
      ok: answer.status >= 200 && answer.status < 300,
      headers: answer.headers,
      text: async () => answer.body,
      json: async () => JSON.parse(answer.body),
    };
  };
  return async (name, argJson) => {
    const f = globalThis[name];
    if (typeof f !== 'function') throw new Error('the script defines no function ' + name + '()');
    const result = await f(JSON.parse(argJson));
    const text = JSON.stringify(result === undefined ? null : result);
    return text === undefined ? 'null' : text;
  };
})()`;

/** What QuickJS says when a limit stops a run, and how the record says it. */
function limitText(message: string, limits: SandboxLimits, cpuSpent: boolean): string | null {
  if (message === 'interrupted' || cpuSpent) return `the script used more than ${limits.cpuMs} ms of CPU time`;
  if (message === 'out of memory') return `the script used more than ${limits.memoryBytes / 1_048_576} MiB of memory`;
  if (message === 'stack overflow') return `the script's stack went past ${limits.stackBytes / 1024} KiB`;
  return null;
}

/** A short text of what the script threw: its name and message, and where. */
function describeThrown(dumped: unknown): string {
  if (dumped && typeof dumped === 'object') {
    const e = dumped as { name?: unknown; message?: unknown; stack?: unknown };
    const head = `${typeof e.name === 'string' ? e.name : 'Error'}: ${typeof e.message === 'string' ? e.message : ''}`;
    const where = typeof e.stack === 'string' ? e.stack.split('\n').find((l) => l.trim().startsWith('at ')) : undefined;
    return where ? `${head} (${where.trim()})` : head;
  }
  return `the script threw ${String(dumped)}`;
}

class RunFailure extends Error {}

/**
 * The pay scripts' sandbox: QuickJS compiled to WebAssembly (quickjs-emscripten's release build). Every
 * run gets a fresh WebAssembly instance, so nothing a run does (or breaks) is seen by another, with:
 * - a CPU-time budget: the interrupt handler stops the interpreter once the run's time inside it reaches
 *   `cpuMs` (time spent waiting for a fetch does not count);
 * - a memory limit on the heap (`memoryBytes`) and a stack limit (`stackBytes`);
 * - a wall-clock limit on the whole run, fetches included (`wallMs`);
 * - no host access: a bare ECMAScript global (no require, process, fs, timers, std or os modules); the
 *   network only through the host's `fetch` (ScriptFetcher: declared hosts, SSRF guard, timeout, size
 *   cap), at most `fetchCalls` times.
 * What the function returns goes through JSON (at most `outputChars`), so only data leaves.
 */
export class PayScriptSandbox {
  readonly limits: SandboxLimits;

  constructor(
    private readonly fetcher: ScriptFetcher,
    limits: Partial<SandboxLimits> = {},
  ) {
    this.limits = { ...PAY_SCRIPT_LIMITS, ...limits };
  }

  /** Why the code does not compile (QuickJS's syntax error), or null when it does. Runs nothing. */
  async compileError(code: string): Promise<string | null> {
    const module = await newQuickJSWASMModuleFromVariant(variant);
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(this.limits.memoryBytes);
    runtime.setMaxStackSize(this.limits.stackBytes);
    const ctx = runtime.newContext();
    try {
      const result = ctx.evalCode(code, 'payscript.js', { type: 'global', compileOnly: true });
      if (result.error) {
        const text = describeThrown(ctx.dump(result.error));
        result.error.dispose();
        return text;
      }
      result.value.dispose();
      return null;
    } finally {
      ctx.dispose();
      runtime.dispose();
    }
  }

  async run(run: SandboxRun): Promise<SandboxOutcome> {
    const limits = this.limits;
    const started = performance.now();
    const fetches: PayScriptFetch[] = [];
    const logs: string[] = [];
    const elapsed = () => Math.round(performance.now() - started);

    const module = await newQuickJSWASMModuleFromVariant(variant);
    const runtime = module.newRuntime();
    runtime.setMemoryLimit(limits.memoryBytes);
    runtime.setMaxStackSize(limits.stackBytes);
    // CPU time: each entry into the interpreter gets what is left of the budget as its deadline.
    let cpuUsed = 0;
    let deadline = Number.POSITIVE_INFINITY;
    runtime.setInterruptHandler(() => performance.now() > deadline);
    const inVm = <T>(f: () => T): T => {
      const enter = performance.now();
      deadline = enter + Math.max(0, limits.cpuMs - cpuUsed);
      try {
        return f();
      } finally {
        cpuUsed += performance.now() - enter;
        deadline = Number.POSITIVE_INFINITY;
      }
    };
    /** Host work done while the interpreter waits on a host function does not count as the script's. */
    const outsideVm = <T>(f: () => T): T => {
      const enter = performance.now();
      try {
        return f();
      } finally {
        const spent = performance.now() - enter;
        cpuUsed -= spent;
        deadline += spent;
      }
    };
    const ctx = runtime.newContext();
    const abort = new AbortController();
    const pending = new Set<QuickJSDeferredPromise>();
    let finished = false;
    let timer: NodeJS.Timeout | undefined;
    /** A limit stopped the run: QuickJS may be left unable to free its objects. */
    let limitHit = false;
    /** Handles this function holds until the end (freed when the context is). */
    const held: QuickJSHandle[] = [];
    let fatal: ((error: RunFailure) => void) | null = null;
    const failed = new Promise<never>((_, reject) => {
      fatal = reject;
    });
    failed.catch(() => undefined);

    const thrownText = (handle: QuickJSHandle): string => {
      let dumped: unknown;
      try {
        dumped = ctx.dump(handle);
      } catch {
        dumped = { name: 'InternalError', message: 'out of memory' };
      } finally {
        handle.dispose();
      }
      const message = (dumped as { message?: unknown } | null)?.message;
      const limit = limitText(typeof message === 'string' ? message : '', limits, cpuUsed >= limits.cpuMs);
      if (limit) limitHit = true;
      return (limit ?? describeThrown(dumped)).slice(0, 1000);
    };
    /** Runs the jobs a settled promise queued (the script's continuations), inside the budget. */
    const pump = () => {
      if (finished) return;
      const result = inVm(() => runtime.executePendingJobs());
      if (result.error) fatal?.(new RunFailure(thrownText(result.error)));
    };

    const hostLog = ctx.newFunction('__hostLog', (line) => {
      if (logs.length < limits.logLines) logs.push(ctx.getString(line).slice(0, limits.logLineChars));
    });
    const hostFetch = ctx.newFunction('__hostFetch', (urlHandle, initHandle) =>
      outsideVm(() => {
        const deferred = ctx.newPromise();
        pending.add(deferred);
        const url = ctx.getString(urlHandle);
        const init = JSON.parse(ctx.getString(initHandle)) as Omit<ScriptRequest, 'url'>;
        const record: PayScriptFetch = {
          url: url.slice(0, 500),
          method: String(init.method).toUpperCase().slice(0, 10),
          status: null,
          durationMs: 0,
          error: null,
        };
        fetches.push(record);
        const fetchStarted = performance.now();
        const settle = (answer: string | null, error: string | null) => {
          record.durationMs = Math.round(performance.now() - fetchStarted);
          record.error = error;
          pending.delete(deferred);
          if (finished) return;
          const value =
            error === null ? ctx.newString(answer ?? '') : ctx.newError({ name: 'TypeError', message: error });
          if (error === null) deferred.resolve(value);
          else deferred.reject(value);
          value.dispose();
          deferred.dispose();
          pump();
        };
        if (fetches.length > limits.fetchCalls) {
          queueMicrotask(() => settle(null, `a run may fetch at most ${limits.fetchCalls} times`));
        } else {
          const headers = Object.fromEntries(
            Object.entries(init.headers && typeof init.headers === 'object' ? init.headers : {}).map(([k, v]) => [
              String(k),
              String(v),
            ]),
          );
          this.fetcher(
            { url, method: String(init.method), headers, body: init.body ?? null },
            run.hosts,
            abort.signal,
          ).then(
            (res) => {
              record.status = res.status;
              settle(JSON.stringify(res), null);
            },
            (error: unknown) =>
              settle(null, error instanceof ScriptFetchError ? error.message : `fetch failed: ${String(error)}`),
          );
        }
        // The call's scope frees what is returned: the deferred keeps its own handle to settle.
        return deferred.handle.dup();
      }),
    );

    try {
      ctx.setProp(ctx.global, '__hostFetch', hostFetch);
      ctx.setProp(ctx.global, '__hostLog', hostLog);
      hostFetch.dispose();
      hostLog.dispose();
      const prelude = inVm(() => ctx.evalCode(PRELUDE, 'prelude.js', { type: 'global' }));
      if (prelude.error) throw new RunFailure(thrownText(prelude.error));
      const runner = prelude.value;
      held.push(runner);

      const evaluated = inVm(() => ctx.evalCode(run.code, 'payscript.js', { type: 'global' }));
      if (evaluated.error) throw new RunFailure(thrownText(evaluated.error));
      evaluated.value.dispose();
      pump();

      const name = ctx.newString(run.fn);
      const argJson = ctx.newString(JSON.stringify(run.arg));
      held.push(name, argJson);
      const called = inVm(() => ctx.callFunction(runner, ctx.undefined, name, argJson));
      if (called.error) throw new RunFailure(thrownText(called.error));
      const settled = ctx.resolvePromise(called.value);
      called.value.dispose();
      pump();
      const wall = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => {
            limitHit = true;
            reject(new RunFailure(`the run took longer than ${limits.wallMs / 1000} s`));
          },
          Math.max(0, limits.wallMs - elapsed()),
        );
      });
      const result = await Promise.race([settled, failed, wall]);
      if (result.error) throw new RunFailure(thrownText(result.error));
      const json = ctx.getString(result.value);
      result.value.dispose();
      if (json.length > limits.outputChars) {
        throw new RunFailure(`the result is longer than ${limits.outputChars} characters as JSON`);
      }
      return { ok: true, value: JSON.parse(json) as unknown, error: null, durationMs: elapsed(), fetches, logs };
    } catch (error) {
      // Anything else is the sandbox's own failure (QuickJS in a state it cannot go on from): the run
      // fails with it, the instance is dropped, and the caller (a payer page) is answered all the same.
      if (!(error instanceof RunFailure)) limitHit = true;
      const text = error instanceof RunFailure ? error.message : `the sandbox stopped: ${String(error).slice(0, 300)}`;
      return { ok: false, value: null, error: text, durationMs: elapsed(), fetches, logs };
    } finally {
      finished = true;
      clearTimeout(timer);
      abort.abort();
      // A run that ended by itself frees its context; one cut short (a limit, a fetch still out) may
      // hold objects QuickJS would refuse to free: its instance is dropped whole and collected.
      if (!limitHit && pending.size === 0) {
        try {
          for (const handle of held) handle.dispose();
          ctx.dispose();
          runtime.dispose();
        } catch {
          // the instance is dropped either way
        }
      }
    }
  }
}
