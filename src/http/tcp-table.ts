/**
 * The kernel's table of TCP sockets (/proc/self/net/tcp and tcp6, Linux), read without a file
 * descriptor: the shutdown finds its listening sockets in it, and a batch stream how much of what it
 * wrote its client has not acknowledged yet (./send-queue.ts). Elsewhere (no /proc) it is empty.
 */
import { readFileSync } from 'node:fs';

/** TCP states as the table writes them (include/net/tcp_states.h). */
export const TCP_STATE = {
  ESTABLISHED: '01',
  TIME_WAIT: '06',
  CLOSE: '07',
  CLOSE_WAIT: '08',
  LAST_ACK: '09',
  LISTEN: '0A',
  CLOSING: '0B',
} as const;

/** One socket of the table. */
export interface TcpEntry {
  localPort: number;
  /** The peer's address as text (`127.0.0.1`, `::1`; an IPv4-mapped IPv6 address as IPv4). */
  remoteAddress: string;
  remotePort: number;
  /** Two hex digits (TCP_STATE). */
  state: string;
  /** Bytes written and not yet acknowledged by the peer (sent or not). */
  txQueue: number;
  inode: string;
}

/** An IPv4 address from the table's hex (a little-endian 32-bit word). */
function ipv4(hex: string): string {
  const n = Number.parseInt(hex, 16);
  return [n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24].join('.');
}

/** An IPv6 address from the table's hex (four little-endian 32-bit words), IPv4-mapped ones as IPv4. */
function ipv6(hex: string): string {
  const bytes: number[] = [];
  for (let word = 0; word < 4; word++) {
    const n = Number.parseInt(hex.slice(word * 8, word * 8 + 8), 16);
    bytes.push(n & 255, (n >>> 8) & 255, (n >>> 16) & 255, n >>> 24);
  }
  if (bytes.slice(0, 10).every((b) => b === 0) && bytes[10] === 255 && bytes[11] === 255) return bytes.slice(12).join('.');
  const groups: string[] = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return groups.join(':');
}

/** An address as requestIP() gives it, in the table's spelling (`::ffff:1.2.3.4` -> `1.2.3.4`, IPv6 uncompressed). */
export function normalAddress(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return mapped[1];
  if (!address.includes(':')) return address;
  const [head, tail = ''] = address.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = address.includes('::') && tail ? tail.split(':') : [];
  const zeros = address.includes('::') ? Array(8 - left.length - right.length).fill('0') : [];
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16).toString(16)).join(':');
}

/** The table's spelling of a port: four upper-case hex digits. */
const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, '0');

/**
 * Every TCP socket of this network namespace (of any process); empty where /proc cannot tell. With
 * `ports`, only the sockets between those two ports: other lines are skipped before they are parsed,
 * since a batch stream looks up its one connection every few milliseconds on a server that may hold
 * thousands.
 */
export function readTcpTable(ports?: { local: number; remote: number }): TcpEntry[] {
  const wanted = ports ? [`:${hexPort(ports.local)} `, `:${hexPort(ports.remote)} `] : null;
  const entries: TcpEntry[] = [];
  for (const [table, address] of [
    ['/proc/self/net/tcp', ipv4],
    ['/proc/self/net/tcp6', ipv6],
  ] as const) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue; // no IPv6, or no /proc
    }
    // "sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode ..."
    for (const line of text.split('\n').slice(1)) {
      if (wanted && !(line.includes(wanted[0]) && line.includes(wanted[1]))) continue;
      const fields = line.trim().split(/\s+/);
      if (fields.length < 10) continue;
      const [, localPort] = fields[1].split(':');
      const [remoteHex, remotePort] = fields[2].split(':');
      entries.push({
        localPort: Number.parseInt(localPort, 16),
        remoteAddress: address(remoteHex),
        remotePort: Number.parseInt(remotePort, 16),
        state: fields[3],
        txQueue: Number.parseInt(fields[4].split(':')[0], 16),
        inode: fields[9],
      });
    }
  }
  return entries;
}
