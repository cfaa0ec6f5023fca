/**
 * The bytes of one encoded batch of spans (otlp-json-spans.ts, otlp-protobuf-spans.ts), written from the start of
 * memory of its own: never a slice of Buffer's shared pool, so that the exporter can move it to its thread rather
 * than copy it. Doubled when the batch outweighs the size it was started with.
 */
export class BatchOutput {
  protected bytes: Buffer;
  protected pos = 0;

  constructor(size: number) {
    this.bytes = Buffer.allocUnsafeSlow(size);
  }

  /** What was written: a view of the output's own memory, from its start. */
  finish(): Uint8Array {
    return new Uint8Array(this.bytes.buffer, this.bytes.byteOffset, this.pos);
  }

  /**
   * Makes room for `more` bytes after those written. A size that is not a whole number (a length read from something
   * that was not a string) is refused at once: doubling towards it would allocate until memory runs out.
   */
  protected room(more: number): void {
    const needed = this.pos + more;
    if (needed <= this.bytes.length) return;
    if (!Number.isSafeInteger(needed)) throw new RangeError(`cannot make room for ${more} more bytes`);
    let size = this.bytes.length * 2;
    while (size < needed) size *= 2;
    const larger = Buffer.allocUnsafeSlow(size);
    this.bytes.copy(larger, 0, 0, this.pos);
    this.bytes = larger;
  }

  byte(value: number): void {
    this.room(1);
    this.bytes[this.pos++] = value;
  }
}

/**
 * The largest output a batch starts with. A batch that needs more grows, by doubling: a guess from a batch of a few
 * outsized spans (a query's text of megabytes) must not ask the next 512 spans for gigabytes, past what a Buffer can
 * hold.
 */
const LARGEST_FIRST_SIZE = 4 * 1024 * 1024;

/**
 * The size of an encoder's batches: each batch's output is made the size the last batch weighed per span, with a
 * quarter more, so that it is seldom grown.
 */
export class BatchSizes {
  constructor(private bytesPerSpan: number) {}

  /** The batch of `spans`, written by `fill` into the output `create` makes of the size guessed for it. */
  write<Output extends BatchOutput>(
    spans: number,
    create: (size: number) => Output,
    fill: (output: Output) => void,
  ): Uint8Array {
    const output = create(Math.min(Math.ceil(spans * this.bytesPerSpan * 1.25) + 1024, LARGEST_FIRST_SIZE));
    fill(output);
    const bytes = output.finish();
    if (spans > 0) this.bytesPerSpan = Math.ceil(bytes.length / spans);
    return bytes;
  }
}
