import { readFileSync } from 'node:fs';

/**
 * Who a process is, beyond its ID: an ID is handed to another program once
 * its process ends (and after a restart, to anything at all), so a lock
 * that names only a PID cannot tell its owner from a stranger. Combined
 * with the ID, the process's start time as the system keeps it can:
 *  - Linux: `linux:<boot id>:<start time in clock ticks since boot>`, from
 *    /proc, exact and read without starting anything;
 *  - macOS and the other Unixes: `ps:<start time>`, as `ps -o lstart=`
 *    prints it (to the second);
 *  - elsewhere (Windows): unknown (null), and a lock falls back to whether
 *    the ID is alive.
 * Null too when the process is gone or cannot be asked about.
 */
export function processIdentity(pid: number): string | null {
  if (!Number.isInteger(pid) || pid <= 0) return null;
  if (process.platform === 'linux') return linuxIdentity(pid);
  if (process.platform === 'win32') return null;
  return psIdentity(pid);
}

let bootId: string | null | undefined;

function linuxIdentity(pid: number): string | null {
  let stat: string;
  try {
    bootId ??= readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null;
  }
  // The command's name (field 2) is in parentheses and may hold spaces or parentheses itself: count from after the last one.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Field 22 of the whole line, the start time; field 3 is the first after the name.
  const startTicks = fields[22 - 3];
  return startTicks && /^\d+$/.test(startTicks) ? `linux:${bootId}:${startTicks}` : null;
}

function psIdentity(pid: number): string | null {
  try {
    // Loaded here, on the systems that ask `ps`: node:child_process brings net, dgram and their bindings into every start.
    const out = process.getBuiltinModule('node:child_process').execFileSync('ps', ['-o', 'lstart=', '-p', String(pid)], {
      encoding: 'utf8', timeout: 2_000, stdio: ['ignore', 'pipe', 'ignore'], env: { ...process.env, LC_ALL: 'C' },
    }).trim();
    return out === '' ? null : `ps:${out}`;
  } catch {
    return null;
  }
}
