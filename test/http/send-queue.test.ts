/**
 * The send queue of a connection read from the kernel's TCP table (src/http/send-queue.ts, issue
 * 33): empty once a client has read what was sent, growing while it does not read, and `closed`
 * once the connection is gone; addresses spelled the table's way.
 */
import { describe, expect, it, setDefaultTimeout } from 'bun:test';
import { connect } from 'node:net';
import { acknowledged, sendQueueOf } from '../../src/http/send-queue';
import { normalAddress, readTcpTable } from '../../src/http/tcp-table';
import { SUITE_TIMEOUT_MS } from '../timeout';

setDefaultTimeout(SUITE_TIMEOUT_MS);

describe('normalAddress', () => {
  it('spells addresses as the TCP table does', () => {
    expect(normalAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalAddress('10.0.0.2')).toBe('10.0.0.2');
    expect(normalAddress('::1')).toBe('0:0:0:0:0:0:0:1');
    expect(normalAddress('2001:db8::ff00:42:8329')).toBe('2001:db8:0:0:0:ff00:42:8329');
  });
});

describe.skipIf(process.platform !== 'linux')('sendQueueOf (Linux)', () => {
  it('sees what a client that stopped reading holds back, then an empty queue once it reads, then a closed connection', async () => {
    let serverSide: import('bun').Socket<undefined> | undefined;
    const listener = Bun.listen({
      hostname: '127.0.0.1',
      port: 0,
      socket: {
        open(socket) {
          serverSide = socket;
        },
        data() {},
      },
    });
    const client = connect({ host: '127.0.0.1', port: listener.port });
    await new Promise((resolve) => client.once('connect', resolve));
    client.pause();
    while (!serverSide) await Bun.sleep(5);
    const queue = sendQueueOf({ localPort: listener.port, address: '::ffff:127.0.0.1', port: client.localPort! });
    expect(queue).not.toBeNull();
    expect(queue!()).toBe(0);
    // More than a paused client's receive buffer takes: the rest waits in the server's send queue.
    const chunk = new Uint8Array(1 << 20);
    for (let i = 0; i < 8; i++) serverSide.write(chunk);
    await Bun.sleep(100);
    expect(queue!()).toBeGreaterThan(0);
    const waiting = acknowledged(queue!, AbortSignal.timeout(5_000));
    client.resume();
    client.on('data', () => {});
    expect(await waiting).toBe(true);
    expect(queue!()).toBe(0);
    client.destroy();
    serverSide.end();
    await Bun.sleep(100);
    expect(readTcpTable().length).toBeGreaterThan(0);
    listener.stop(true);
    await Bun.sleep(50);
    expect(queue!()).toBe('closed');
  });

  it('finds nothing to watch for a connection that is not in the table', () => {
    expect(sendQueueOf({ localPort: 1, address: '127.0.0.1', port: 1 })).toBeNull();
    expect(sendQueueOf(null)).toBeNull();
  });
});
