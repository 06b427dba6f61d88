/**
 * Group commit: calls that arrive while a batch is being written wait and go together as the next
 * batch, so concurrent work shares one transaction's statements and commit instead of each paying for
 * its own (the order create: see `OrdersService.createFor`). A quiet system runs each call as soon as
 * it comes (a batch of one), so nothing waits for a timer; under load batches grow by themselves.
 * `run` answers one result or Error per item, in order; one batch runs at a time.
 */
export class Batcher<I, O> {
  private queue: Array<{ item: I; resolve: (value: O) => void; reject: (error: unknown) => void }> = [];
  private running = false;

  constructor(
    private readonly run: (items: I[]) => Promise<Array<O | Error>>,
    private readonly maxBatch: number,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      if (!this.running) {
        this.running = true;
        // Calls handled in the same turn of the event loop (several requests read at once) go together.
        setImmediate(() => void this.drain());
      }
    });
  }

  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.maxBatch);
      try {
        const results = await this.run(batch.map((b) => b.item));
        batch.forEach((b, i) => {
          const result = results[i];
          if (result instanceof Error) b.reject(result);
          else b.resolve(result as O);
        });
      } catch (error) {
        for (const b of batch) b.reject(error);
      }
    }
    this.running = false;
  }
}
