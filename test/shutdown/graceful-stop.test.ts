import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { SUITE_TIMEOUT_MS } from '../timeout';
import { connect } from 'node:net';
import {
  closeListeningSockets,
  ConnectionDrain,
  gracefulStop,
  listeningFds,
  portHasListener,
  type StoppableServer,
} from '../../src/shutdown';

setDefaultTimeout(SUITE_TIMEOUT_MS);

/** A fake server: in-flight count and the stop calls it received, in order. */
function fakeServer(pending = 0) {
  const calls: Array<{ force: boolean; at: number }> = [];
  const t0 = performance.now();
  let release: () => void = () => {};
  const server: StoppableServer & { pending: number } = {
    port: 1,
    pending,
    get pendingRequests() {
      return this.pending;
    },
    stop(force = false) {
      calls.push({ force, at: performance.now() - t0 });
      // stop(false) resolves when in-flight requests end; stop(true) at once.
      return force || this.pending === 0 ? Promise.resolve() : new Promise<void>((r) => (release = r));
    },
  };
  return { server, calls, release: () => release() };
}

describe('gracefulStop', () => {
  it('falls back to stop(false) at once where the listening socket cannot be closed alone', async () => {
    const { server, calls } = fakeServer();
    const drain = new ConnectionDrain();
    const outcome = await gracefulStop(server, { drain, graceMs: 5000, closeListener: () => 0 });
    expect(outcome).toMatchObject({ listenerClosedFirst: false, forced: false });
    expect(calls.map((c) => c.force)).toEqual([false]);
    expect(calls[0].at).toBeLessThan(50);
    expect(drain.draining).toBe(true);
  });

  it('with the listener closed, waits for in-flight requests and for quiet before closing the idle connections', async () => {
    const { server, calls } = fakeServer(1);
    const drain = new ConnectionDrain();
    setTimeout(() => (server.pending = 0), 150);
    const outcome = await gracefulStop(server, {
      drain,
      graceMs: 5000,
      quietMs: 100,
      closeListener: () => 1,
      portHasListener: () => false,
    });
    expect(outcome).toMatchObject({ listenerClosedFirst: true, forced: false });
    expect(calls.map((c) => c.force)).toEqual([false]);
    expect(calls[0].at).toBeGreaterThanOrEqual(140);
  });

  it('asks clients to reconnect only once no other process listens on the port', async () => {
    const { server } = fakeServer();
    const drain = new ConnectionDrain();
    let siblingListens = true;
    setTimeout(() => (siblingListens = false), 120);
    const seen: boolean[] = [];
    const timer = setInterval(() => seen.push(drain.draining), 20);
    await gracefulStop(server, { drain, graceMs: 5000, quietMs: 0, closeListener: () => 1, portHasListener: () => siblingListens });
    clearInterval(timer);
    expect(seen.slice(0, 4)).toEqual([false, false, false, false]);
    expect(drain.draining).toBe(true);
  });

  it('closes everything once the grace period is over', async () => {
    const { server, calls } = fakeServer(1);
    const outcome = await gracefulStop(server, {
      drain: new ConnectionDrain(),
      graceMs: 200,
      quietMs: 50,
      closeListener: () => 1,
      portHasListener: () => false,
    });
    expect(outcome.forced).toBe(true);
    expect(calls.map((c) => c.force)).toEqual([false, true]);
    expect(calls[1].at).toBeGreaterThanOrEqual(190);
  });

  it('waits for streams still writing although Bun has no request in flight, and says forced when they outlast the grace period (issue 33)', async () => {
    for (const closeListener of [() => 1, () => 0]) {
      const { server, calls } = fakeServer(0);
      let open = 1;
      setTimeout(() => {
        open = 0;
      }, 120);
      const finished = await gracefulStop(server, {
        drain: new ConnectionDrain(),
        graceMs: 1000,
        quietMs: 10,
        closeListener,
        portHasListener: () => false,
        openStreams: () => open,
      });
      expect(finished.forced).toBe(false);
      expect(calls[0].at).toBeGreaterThanOrEqual(110);

      const stuck = fakeServer(0);
      const cut = await gracefulStop(stuck.server, {
        drain: new ConnectionDrain(),
        graceMs: 200,
        quietMs: 10,
        closeListener,
        portHasListener: () => false,
        openStreams: () => 1,
      });
      expect(cut.forced).toBe(true);
      expect(stuck.calls.map((c) => c.force)).toEqual([false, true]);
    }
  });
});

describe.skipIf(process.platform !== 'linux')('closeListeningSockets (Linux)', () => {
  it('refuses new connections while a kept-alive connection keeps being served', async () => {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') });
    const port = server.port!;
    try {
      expect(listeningFds(port)).toHaveLength(1);
      expect(portHasListener(port)).toBe(true);
      const socket = connect({ host: '127.0.0.1', port });
      await new Promise((r) => socket.once('connect', r));
      const answer = () =>
        new Promise<string>((resolve) => {
          socket.once('data', (d) => resolve(d.toString()));
          socket.write('GET / HTTP/1.1\r\nHost: x\r\n\r\n');
        });
      expect(await answer()).toStartWith('HTTP/1.1 200');
      expect(closeListeningSockets(port)).toBe(1);
      expect(portHasListener(port)).toBe(false);
      const fresh = await new Promise<string>((resolve) => {
        const s = connect({ host: '127.0.0.1', port });
        s.once('connect', () => (s.destroy(), resolve('connected')));
        s.once('error', (e: NodeJS.ErrnoException) => resolve(e.code ?? 'error'));
      });
      expect(fresh).toBe('ECONNREFUSED');
      expect(await answer()).toStartWith('HTTP/1.1 200');
      socket.destroy();
    } finally {
      await server.stop(true);
    }
  });

  it('closes nothing on a port nobody listens on', () => {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') });
    const port = server.port!;
    void server.stop(true);
    expect(closeListeningSockets(port)).toBe(0);
  });
});

describe('ConnectionDrain', () => {
  it('adds Connection: close to every answer once draining, errors included', async () => {
    const { Elysia } = await import('elysia');
    const drain = new ConnectionDrain();
    const app = new Elysia()
      .use(drain.plugin())
      .get('/ok', () => 'ok')
      .get('/boom', () => {
        throw new Error('boom');
      });
    const header = async (path: string) => (await app.handle(new Request(`http://localhost${path}`))).headers.get('connection');
    expect(await header('/ok')).toBeNull();
    drain.begin();
    expect(await header('/ok')).toBe('close');
    expect(await header('/boom')).toBe('close');
    expect(await header('/missing')).toBe('close');
    expect(drain.quietForMs()).toBeLessThan(100);
  });
});
