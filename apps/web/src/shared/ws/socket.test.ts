import { WS_PATH } from '@paydesk/contract';
import { describe, expect, it, vi } from 'vitest';
import { RealtimeSocket, type SocketLike } from './socket';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: Array<Record<string, unknown>> = [];
  closed = false;
  onopen: ((ev: unknown) => void) | null = null;
  onclose: ((ev: unknown) => void) | null = null;
  onerror: ((ev: unknown) => void) | null = null;
  onmessage: ((ev: { data: unknown }) => void) | null = null;
  send(data: string) {
    this.sent.push(JSON.parse(data));
  }
  close() {
    this.closed = true;
  }
  open() {
    this.readyState = 1;
    this.onopen?.({});
  }
  reply(frame: object) {
    this.onmessage?.({ data: JSON.stringify(frame) });
  }
}

function setup(token: string | null = 'tok') {
  vi.useFakeTimers();
  const sockets: FakeSocket[] = [];
  const storage = { setItem: vi.fn() };
  const states: string[] = [];
  const expired = vi.fn();
  const client = new RealtimeSocket({
    url: `ws://x${WS_PATH}`,
    getToken: () => token,
    create: () => {
      const s = new FakeSocket();
      sockets.push(s);
      return s;
    },
    storage,
    backoffMs: (n) => n * 1000,
    onSessionExpired: expired,
    onStateChange: (s) => states.push(s),
  });
  return { client, sockets, storage, states, expired };
}

describe('websocket client state machine', () => {
  it('goes Uninitialized -> Connecting -> Connected and sends only when Connected', () => {
    const { client, sockets, states } = setup();
    expect(client.state).toBe('Uninitialized');
    expect(client.command('heartbeat')).toBe(false);
    client.connect();
    expect(client.state).toBe('Connecting');
    expect(client.command('heartbeat')).toBe(false);
    client.connect(); // no second socket while connecting
    expect(sockets).toHaveLength(1);
    sockets[0]!.open();
    expect(states).toEqual(['Connecting', 'Connected']);
    expect(client.command('subscribe', { topic: 'orders' })).toBe(true);
    expect(sockets[0]!.sent.at(-1)).toMatchObject({
      commandType: 'subscribe',
      token: 'tok',
      data: { topic: 'orders' },
    });
  });

  it('sends a heartbeat on connect and every 20 s, and stores the key as currentKey', () => {
    const { client, sockets, storage } = setup();
    client.connect();
    sockets[0]!.open();
    expect(sockets[0]!.sent.filter((f) => f.commandType === 'heartbeat')).toHaveLength(1);
    vi.advanceTimersByTime(40_000);
    expect(sockets[0]!.sent.filter((f) => f.commandType === 'heartbeat')).toHaveLength(3);
    sockets[0]!.reply({ code: 200, requestId: 'r1', data: { key: 'k-123' }, msg: 'success' });
    expect(storage.setItem).toHaveBeenCalledWith('currentKey', 'k-123');
  });

  it('reconnects after Error and Closed with growing backoff, resubscribing its topics', () => {
    const { client, sockets } = setup();
    client.subscribe('orders');
    client.connect();
    sockets[0]!.open();
    sockets[0]!.onerror?.({});
    expect(client.state).toBe('Error');
    vi.advanceTimersByTime(999);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    sockets[1]!.onclose?.({});
    expect(client.state).toBe('Closed');
    vi.advanceTimersByTime(2000);
    expect(sockets).toHaveLength(3);
    sockets[2]!.open();
    expect(
      sockets[2]!.sent.some((f) => f.commandType === 'subscribe' && (f.data as { topic: string }).topic === 'orders'),
    ).toBe(true);
  });

  it('a 1003 answer alerts that the session expired and stops reconnecting; logout closes for good', () => {
    const { client, sockets, expired } = setup();
    client.connect();
    sockets[0]!.open();
    sockets[0]!.reply({ code: 1003, requestId: 'r1', data: null, msg: 'session expired' });
    expect(expired).toHaveBeenCalledOnce();
    expect(client.state).toBe('Closed');
    vi.advanceTimersByTime(60_000);
    expect(sockets).toHaveLength(1);
  });

  it('delivers pushed events to the app', () => {
    const onEvent = vi.fn();
    vi.useFakeTimers();
    const sockets: FakeSocket[] = [];
    const client = new RealtimeSocket({
      url: 'ws://x',
      getToken: () => 't',
      create: () => {
        const s = new FakeSocket();
        sockets.push(s);
        return s;
      },
      storage: { setItem: vi.fn() },
      onEvent,
    });
    client.connect();
    sockets[0]!.open();
    sockets[0]!.reply({ type: 'event', topic: 'messages', data: { unread: 3 } });
    expect(onEvent).toHaveBeenCalledWith('messages', { unread: 3 });
  });
});
