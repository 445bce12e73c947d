import { readdirSync, readFileSync } from 'node:fs';

/**
 * This bench's processes by role: the API and the worker by pid, PostgreSQL (the postmaster and its backends) and the
 * Temporal dev server by the port on their command line (other stacks may run on the machine).
 */
export interface CpuRoles {
  api?: number;
  worker?: number;
  postgresPort: number;
  temporalPort: number;
}

interface ProcessInfo {
  pid: number;
  parent: number;
  command: string;
  cpuSeconds: number;
}

function processes(): ProcessInfo[] {
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  return pids.flatMap((pid) => {
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8');
      // Fields after the command's closing parenthesis: the parent is the 2nd, utime and stime the 12th and 13th.
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      const cpuSeconds = (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
      return [{ pid: Number(pid), parent: Number(fields[1]), command, cpuSeconds }];
    } catch {
      return []; // ended meanwhile
    }
  });
}

const TICKS_PER_SECOND = 100;

/** CPU seconds used so far by each role's processes (Linux /proc; empty elsewhere). */
function cpuSeconds(roles: CpuRoles): Map<string, number> {
  const all = processes();
  const postmaster = all.find((p) => p.command.includes(`\u0000-p\u0000${roles.postgresPort}\u0000`))?.pid;
  const roleOf = (p: ProcessInfo) => {
    if (p.pid === roles.api) return 'API';
    if (p.pid === roles.worker) return 'worker';
    if (p.pid === process.pid) return 'bench clients';
    if (postmaster !== undefined && (p.pid === postmaster || p.parent === postmaster)) return 'PostgreSQL';
    if (p.command.includes(`\u0000--port\u0000${roles.temporalPort}\u0000`)) return 'Temporal';
    return undefined;
  };
  const used = new Map<string, number>();
  for (const p of all) {
    const role = roleOf(p);
    if (role) used.set(role, (used.get(role) ?? 0) + p.cpuSeconds);
  }
  return used;
}

/**
 * Measures who used the cores during `work`: each role's CPU as a share of one core, e.g. `API 85%`. A database
 * connection opened and closed within the work is missed (the bench's pools keep theirs).
 */
export async function withCpuShares<T>(roles: CpuRoles, work: () => Promise<T>): Promise<[T, string]> {
  const before = cpuSeconds(roles);
  const started = performance.now();
  const result = await work();
  const seconds = (performance.now() - started) / 1000;
  const after = cpuSeconds(roles);
  const shares = [...after]
    .map(([role, total]) => `${role} ${((100 * (total - (before.get(role) ?? 0))) / seconds).toFixed(0)}%`)
    .join(', ');
  return [result, shares ? `CPU (% of one core): ${shares}` : 'CPU shares: not measured (no /proc)'];
}
