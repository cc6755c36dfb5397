/**
 * Stops accepting connections without touching the open ones (Linux). Bun's `server.stop(false)`
 * does two things at once: it closes the listening socket and every keep-alive connection that is
 * idle at that instant. A client whose next request is already on the wire to an "idle" connection
 * gets a reset: 17-21 of 32 keep-alive clients did after SIGTERM (issue 16). Closing only the
 * listening socket first lets those connections be drained: each gets one more answer, marked
 * `Connection: close` (./drain.ts).
 *
 * How: the process's listening sockets on `port` are found through /proc (socket inode in
 * /proc/self/net/tcp{,6}, read by src/http/tcp-table.ts, then the fd in /proc/self/fd pointing at it), and /dev/null is dup2()ed
 * over each fd. The kernel closes the socket (new connections are refused, so clients reconnect
 * elsewhere or fail before sending anything) and removes it from Bun's epoll set; the fd number
 * stays taken until Bun's own stop() closes it, so that close cannot hit a reused descriptor.
 */
import { dlopen, FFIType } from 'bun:ffi';
import { closeSync, openSync, readdirSync, readlinkSync } from 'node:fs';
import { readTcpTable, TCP_STATE } from '../http/tcp-table';

/** Socket inodes of the listening TCP sockets on `port` in this network namespace (IPv4 and IPv6), of any process. */
function listeningInodes(port: number): Set<string> {
  return new Set(
    readTcpTable()
      .filter((entry) => entry.state === TCP_STATE.LISTEN && entry.localPort === port)
      .map((entry) => entry.inode),
  );
}

/**
 * True while some process still listens on `port` (with WORKERS > 1 the siblings share it through
 * SO_REUSEPORT); false where /proc cannot tell.
 */
export function portHasListener(port: number): boolean {
  return process.platform === 'linux' && listeningInodes(port).size > 0;
}

/** This process's file descriptors that are listening TCP sockets on `port`. */
export function listeningFds(port: number): number[] {
  const inodes = listeningInodes(port);
  if (inodes.size === 0) return [];
  const fds: number[] = [];
  for (const name of readdirSync('/proc/self/fd')) {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${name}`))?.[1];
      if (inode !== undefined && inodes.has(inode)) fds.push(Number(name));
    } catch {
      // the fd was closed while listing (readdir's own)
    }
  }
  return fds;
}

/**
 * Closes this process's listening sockets on `port`, leaving accepted connections open; returns
 * how many were closed (0 where this is not possible: not Linux, no glibc, no /proc). The server
 * object still needs its stop() afterwards.
 */
export function closeListeningSockets(port: number): number {
  if (process.platform !== 'linux') return 0;
  try {
    const fds = listeningFds(port);
    if (fds.length === 0) return 0;
    const libc = dlopen('libc.so.6', { dup2: { args: [FFIType.i32, FFIType.i32], returns: FFIType.i32 } });
    const placeholder = openSync('/dev/null', 'r');
    try {
      return fds.filter((fd) => libc.symbols.dup2(placeholder, fd) === fd).length;
    } finally {
      closeSync(placeholder);
      libc.close();
    }
  } catch {
    return 0;
  }
}
