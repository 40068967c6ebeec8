import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/**
 * PostgreSQL's CPU spent for one client process: its backends only, those serving the connections that process
 * holds, matched by TCP port (`/proc/net/tcp`: the client's local port is its backend's remote port). The whole
 * cluster's CPU (ab-timeline.ts `postgresCpuMs`) also carries autovacuum, the WAL writer, the checkpointer and the
 * other servers' idle pools, which moved it ±25% between passes (docs/benchmarks.md "ninth round"). Backends are
 * timed from `/proc/<pid>/schedstat` (nanoseconds); a backend whose connection closes during the pass takes its
 * CPU with it (the servers' pools keep theirs open under load).
 */
export type BackendSnapshot = Map<number, number>;

function socketInodes(pid: number | string): string[] {
  const folder = `/proc/${pid}/fd`;
  const inodes: string[] = [];
  let entries: string[];
  try {
    entries = readdirSync(folder);
  } catch {
    return inodes; // exited meanwhile
  }
  for (const entry of entries) {
    try {
      const target = readlinkSync(path.join(folder, entry));
      if (target.startsWith('socket:[')) inodes.push(target.slice(8, -1));
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** Per socket inode: its local and remote TCP ports (IPv4: the clusters listen on 127.0.0.1 only). */
function tcpPorts(): Map<string, { local: number; remote: number }> {
  const ports = new Map<string, { local: number; remote: number }>();
  for (const line of readFileSync('/proc/net/tcp', 'utf8').split('\n').slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 10) continue;
    const port = (address: string) => parseInt(address.split(':')[1], 16);
    ports.set(fields[9], { local: port(fields[1]), remote: port(fields[2]) });
  }
  return ports;
}

/** CPU so far (ns) of each backend of the cluster in `dataDir` serving a connection of `clientPid`. */
export function snapshotBackends(dataDir: string, clientPid: number): BackendSnapshot {
  const snapshot: BackendSnapshot = new Map();
  let postmaster: string;
  try {
    postmaster = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0];
  } catch {
    return snapshot;
  }
  const ports = tcpPorts();
  const clientPorts = new Set(
    socketInodes(clientPid).flatMap((inode) => {
      const socket = ports.get(inode);
      return socket ? [socket.local] : [];
    }),
  );
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1] !== postmaster) continue;
      const serves = socketInodes(entry).some((inode) => clientPorts.has(ports.get(inode)?.remote ?? -1));
      if (serves)
        snapshot.set(Number(entry), Number(readFileSync(`/proc/${entry}/schedstat`, 'utf8').split(' ')[0]));
    } catch {
      // exited meanwhile
    }
  }
  return snapshot;
}

/** The CPU (ms) those backends spent between two snapshots (a backend new in `after` counts whole). */
export function backendCpuMsBetween(before: BackendSnapshot, after: BackendSnapshot): number {
  let ns = 0;
  for (const [pid, cpu] of after) ns += cpu - (before.get(pid) ?? 0);
  return ns / 1e6;
}
