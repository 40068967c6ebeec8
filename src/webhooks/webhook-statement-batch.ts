interface Waiting<In, Out> {
  input: In;
  resolve: (output: Out) => void;
  reject: (error: unknown) => void;
}

/**
 * Gathers the calls of concurrently running delivery jobs into one statement (issue #31 goal 6): the calls made
 * in the same turn of the event loop go together, and those made while a statement is in flight go together in
 * the next one, so a lone call waits for nothing and a burst pays one round trip per batch instead of one per
 * delivery. Each job is still its own graphile-worker job, completed or retried alone: only the statement is
 * shared. A failed statement fails every call of its batch (each job then retries, as when its own statement
 * failed).
 */
export class StatementBatch<In, Out> {
  private waiting: Waiting<In, Out>[] = [];
  private running = false;
  private scheduled = false;

  constructor(
    /** One statement for the inputs; answers one output per input, in order. */
    private readonly run: (inputs: In[]) => Promise<Out[]>,
    private readonly maxBatch = 100,
  ) {}

  call(input: In): Promise<Out> {
    return new Promise<Out>((resolve, reject) => {
      this.waiting.push({ input, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.running || this.scheduled) return;
    this.scheduled = true;
    // setImmediate, not a microtask: jobs started together by the worker's local queue call from separate
    // continuations of the same event-loop turn.
    setImmediate(() => {
      this.scheduled = false;
      void this.flush();
    });
  }

  private async flush(): Promise<void> {
    if (this.running || this.waiting.length === 0) return;
    this.running = true;
    const batch = this.waiting.splice(0, this.maxBatch);
    try {
      const outputs = await this.run(batch.map((item) => item.input));
      batch.forEach((item, index) => item.resolve(outputs[index]));
    } catch (error) {
      for (const item of batch) item.reject(error);
    } finally {
      this.running = false;
      if (this.waiting.length > 0) this.schedule();
    }
  }
}
