/**
 * For the page tests of live lists: a socket the test opens and pushes events through, standing in
 * for the browser's WebSocket (install with `vi.stubGlobal('WebSocket', LiveSocket)`).
 */
export class LiveSocket {
  static last: LiveSocket | null = null;
  readyState = 0;
  sent: string[] = [];
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  constructor() {
    LiveSocket.last = this;
  }
  send(data: string) {
    this.sent.push(data);
  }
  close() {}
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  /** The topics subscribed to so far. */
  subscribed(): string[] {
    return this.sent
      .map((s) => JSON.parse(s) as { commandType: string; data?: { topic?: string } })
      .filter((c) => c.commandType === 'subscribe' && c.data?.topic !== undefined)
      .map((c) => c.data!.topic!);
  }
  /** A server event on `topic` (the pages refetch on it; the data is what the server would send). */
  push(topic: string, data: unknown) {
    this.onmessage?.({ data: JSON.stringify({ type: 'event', topic, data }) });
  }
}
