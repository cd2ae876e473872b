/**
 * Which processes belong to an app: its launch process, every descendant (chromium's renderer
 * and GPU processes own windows too), and whatever else still sits in its process group
 * (children that daemonised and were re-parented away). Read from /proc: Linux only.
 */
import { readdir, readFile } from 'node:fs/promises';

interface ProcStat {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly state: string;
}

const readStat = async (pid: string): Promise<ProcStat | undefined> => {
  try {
    const text = await readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may hold spaces and parentheses itself.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    return {
      pid: Number(pid),
      state: fields[0] ?? '?',
      ppid: Number(fields[1]),
      pgid: Number(fields[2]),
    };
  } catch {
    return undefined; // Gone between readdir and readFile.
  }
};

/** Live (non-zombie) pids of the tree rooted at `rootPid` plus the members of group `pgid`. */
export const appProcesses = async (rootPid: number, pgid: number = rootPid): Promise<Set<number>> => {
  const entries = await readdir('/proc');
  const stats = (await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map(readStat))).filter(
    (s): s is ProcStat => s !== undefined && s.state !== 'Z',
  );
  const children = new Map<number, number[]>();
  for (const s of stats) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s.pid]);
  const alive = new Set(stats.map((s) => s.pid));
  const result = new Set<number>();
  const queue = alive.has(rootPid) ? [rootPid] : [];
  for (const s of stats) if (s.pgid === pgid) queue.push(s.pid);
  while (queue.length > 0) {
    const pid = queue.pop() as number;
    if (result.has(pid)) continue;
    result.add(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return result;
};
