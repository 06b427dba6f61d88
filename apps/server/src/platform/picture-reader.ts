import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Code, PICTURE_QUERY_TEXTS } from '@paydesk/contract';
import Tesseract from 'tesseract.js';
import { AppError, refused } from './errors.js';

const require = createRequire(import.meta.url);
/**
 * The English model shipped in the npm package @tesseract.js-data/eng (its small "best_int" LSTM
 * model): read from disk, so nothing is fetched at run time (tesseract.js would otherwise download
 * it from a CDN).
 */
const LANG_PATH = join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

export interface PictureReaderOptions {
  /** How long one picture may take to read before the worker is stopped (and started afresh next time). */
  timeoutMs?: number;
  /** Pictures that may wait while one is read; more are refused (429 `pictureQueryBusy`). */
  maxWaiting?: number;
}

/**
 * Reads the text of a picture with tesseract.js (Tesseract compiled to WebAssembly), in the library's
 * worker thread so the event loop never runs the recognition. One picture at a time per process (one
 * worker, a short queue), each bounded in time: a picture that takes too long stops the worker (its
 * thread is terminated) and is refused as unreadable. The worker starts on the first picture (a
 * process that never reads one pays nothing) and is terminated by `close` (the app's onClose).
 */
export class PictureReader {
  private worker: Promise<Tesseract.Worker> | null = null;
  private tail: Promise<unknown> = Promise.resolve();
  private waiting = 0;
  private closed = false;
  private readonly timeoutMs: number;
  private readonly maxWaiting: number;

  constructor(options: PictureReaderOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 20_000;
    this.maxWaiting = options.maxWaiting ?? 3;
  }

  /** The picture's text; a refusal (AppError) when busy, closed, too slow or not readable. */
  read(bytes: Buffer): Promise<string> {
    if (this.closed) throw refused(PICTURE_QUERY_TEXTS.pictureUnreadable, 'pictureUnreadable');
    if (this.waiting > this.maxWaiting) {
      throw new AppError(Code.tooManyRequests, PICTURE_QUERY_TEXTS.pictureQueryBusy, { reason: 'pictureQueryBusy' });
    }
    this.waiting += 1;
    const run = this.tail.then(() => this.readNow(bytes));
    this.tail = run
      .catch(() => undefined)
      .finally(() => {
        this.waiting -= 1;
      });
    return run;
  }

  private startWorker(): Promise<Tesseract.Worker> {
    this.worker ??= Tesseract.createWorker('eng', Tesseract.OEM.LSTM_ONLY, {
      langPath: LANG_PATH,
      gzip: true,
      // Nothing written next to the process: the model is read from the package each start.
      cacheMethod: 'none',
      // Without a handler the library throws a failed job from its message handler (an uncaught
      // exception); the job's promise carries the failure instead.
      errorHandler: () => undefined,
    }).catch((error: unknown) => {
      this.worker = null;
      throw error;
    });
    return this.worker;
  }

  private async readNow(bytes: Buffer): Promise<string> {
    if (this.closed) throw refused(PICTURE_QUERY_TEXTS.pictureUnreadable, 'pictureUnreadable');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), this.timeoutMs);
    });
    try {
      const work = this.startWorker().then((w) => w.recognize(bytes));
      // A failure after the time limit has nobody waiting for it.
      work.catch(() => undefined);
      const outcome = await Promise.race([work, late]);
      if (outcome === 'late') {
        await this.stopWorker();
        throw refused(PICTURE_QUERY_TEXTS.pictureUnreadable, 'pictureUnreadable');
      }
      return outcome.data.text;
    } catch (error) {
      if (error instanceof AppError) throw error;
      // A picture the decoder refuses (a broken file behind valid magic bytes).
      throw refused(PICTURE_QUERY_TEXTS.pictureUnreadable, 'pictureUnreadable');
    } finally {
      clearTimeout(timer);
    }
  }

  private async stopWorker(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    try {
      const started = await worker;
      // A recognize call in hand reads its image (microtasks) before it posts the job; terminating in
      // between would make the library post to a terminated worker, an unhandled rejection. Let it post.
      await new Promise((resolve) => setImmediate(resolve));
      await started.terminate();
    } catch {
      // It failed to start: nothing runs.
    }
  }

  /** Stops the worker; pictures asked for afterwards are refused. */
  async close(): Promise<void> {
    this.closed = true;
    await this.stopWorker();
  }
}
