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

  /** Makes room for `more` bytes after those written. */
  protected room(more: number): void {
    const needed = this.pos + more;
    if (needed <= this.bytes.length) return;
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
 * What an encoder's last batch weighed per span: the next batch's output is made that size, with a quarter more, so
 * that it is seldom grown.
 */
export class BatchSizeGuess {
  constructor(private bytesPerSpan: number) {}

  /** The size to start the output of a batch of `spans` with. */
  sizeFor(spans: number): number {
    return Math.ceil(spans * this.bytesPerSpan * 1.25) + 1024;
  }

  /** Learns from a batch of `spans` that weighed `bytes`. */
  learn(bytes: number, spans: number): void {
    if (spans > 0) this.bytesPerSpan = Math.ceil(bytes / spans);
  }
}
