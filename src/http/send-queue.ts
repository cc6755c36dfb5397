/**
 * What a response has written and its client has not acknowledged yet, from the kernel's TCP
 * table (./tcp-table.ts): a batch stream scores its next file only once the lines before it have
 * reached the client's machine, and charges a result only once its line has (issue 33). Without
 * this, the stream ran as far ahead as the socket buffers absorbed: up to 4 MB, all 12 results of
 * a batch whose client had read 2.
 */
import { normalAddress, readTcpTable, TCP_STATE } from './tcp-table';

/** One TCP connection as the server sees it: its own port and the client's address and port (Bun's `server.requestIP`). */
export interface Connection {
  localPort: number;
  address: string;
  port: number;
}

/** Bytes written on the connection that its client's TCP stack has not acknowledged, or `closed` once the connection is gone. */
export type SendQueue = () => number | 'closed';

/** First and longest pause between two looks at the table while waiting (ms): an acknowledgement on a LAN takes well under 1 ms, a stalled client forever. */
const FIRST_POLL_MS = 1;
const MAX_POLL_MS = 50;

/**
 * States of a connection whose client is gone: it sent FIN (CLOSE_WAIT, and LAST_ACK or CLOSING once
 * this side closes too; Bun answers 499 to a client that half-closes), or it is over (TIME_WAIT of an
 * earlier connection on the same ports, CLOSE). A reset connection leaves the table at once.
 */
const GONE: ReadonlySet<string> = new Set([
  TCP_STATE.CLOSE_WAIT,
  TCP_STATE.LAST_ACK,
  TCP_STATE.CLOSING,
  TCP_STATE.TIME_WAIT,
  TCP_STATE.CLOSE,
]);

/** The entry of `connection` in `table`, if it is open and its client has not hung up. */
function find(connection: Connection, address: string, table = readTcpTable({ local: connection.localPort, remote: connection.port })) {
  return table.find(
    (entry) =>
      entry.localPort === connection.localPort &&
      entry.remotePort === connection.port &&
      entry.remoteAddress === address &&
      entry.state !== TCP_STATE.LISTEN &&
      !GONE.has(entry.state),
  );
}

/**
 * The send queue of `connection`, or null where it cannot be watched (no /proc, not Linux, a
 * connection not in the table: a request made in-process, or through a Unix socket).
 */
export function sendQueueOf(connection: Connection | null | undefined): SendQueue | null {
  if (!connection || process.platform !== 'linux') return null;
  const address = normalAddress(connection.address);
  if (!find(connection, address)) return null;
  return () => find(connection, address)?.txQueue ?? 'closed';
}

/** Resolves after `ms`, or at once when `signal` aborts. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener('abort', done, { once: true });
  });
}

/**
 * Waits until everything written so far on the connection has been acknowledged by the client:
 * true then, false when the connection is gone or `signal` aborted first. Looks at once, then at
 * growing intervals up to MAX_POLL_MS (a stalled client costs one table read per 50 ms).
 */
export async function acknowledged(queue: SendQueue, signal: AbortSignal): Promise<boolean> {
  let wait = FIRST_POLL_MS;
  while (!signal.aborted) {
    const left = queue();
    if (left === 'closed') return false;
    if (left === 0) return true;
    await pause(wait, signal);
    wait = Math.min(MAX_POLL_MS, wait * 2);
  }
  return false;
}
