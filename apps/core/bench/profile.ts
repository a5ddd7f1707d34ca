import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { formatTable } from './lib.js';

/**
 * Summarises a V8 `.cpuprofile` (what `node --cpu-prof` writes): where a process spent its busy
 * time, by function (self time), by file or package (self time), and by file or package including
 * what they called (a sample counts once for each file or package on its stack). Idle time is left
 * out of every share. As a command: `node --import tsx bench/profile.ts <file.cpuprofile> [top]`.
 */

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileEntry {
  name: string;
  ms: number;
  /** Of the busy time. */
  share: number;
}

export interface ProfileSummary {
  /** Wall time the summary covers, idle included. */
  sampledMs: number;
  busyMs: number;
  gcMs: number;
  topFunctions: ProfileEntry[];
  topFilesSelf: ProfileEntry[];
  topFilesInclusive: ProfileEntry[];
}

/**
 * A short name for where code lives: a package by its name (`koa`, `@koa/router`), the service's
 * own code by its path under dist/ or src/, Node's by its `node:` name.
 */
export function moduleOf(url: string): string {
  if (!url) return '(native)';
  const modules = url.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const parts = url.slice(modules + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  const own = /\/apps\/[^/]+\/((?:dist|src|bench)\/.*)$/.exec(url);
  if (own) return own[1]!;
  return url.replace(/^file:\/\//, '');
}

const IDLE = '(idle)';
// Node's dispatch of microtasks and timers sits under nearly every sample; counted with what they call they say nothing.
const DISPATCH = new Set(['node:internal/process/task_queues', 'node:internal/timers']);
const GC = '(garbage collector)';

function top(map: Map<string, number>, busyMs: number, count: number): ProfileEntry[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, ms]) => ({ name, ms, share: busyMs > 0 ? ms / busyMs : 0 }));
}

/**
 * `windows` (microseconds of the monotonic clock, which `process.hrtime` and the profile share)
 * keeps only the samples taken within them, e.g. leaving out the process's start-up.
 */
export function summarizeCpuProfile(profile: CpuProfile, count = 15, windows?: readonly (readonly [number, number])[]): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

  const selfByFunction = new Map<string, number>();
  const selfByModule = new Map<string, number>();
  const inclusiveByModule = new Map<string, number>();
  const add = (map: Map<string, number>, key: string, ms: number) => map.set(key, (map.get(key) ?? 0) + ms);
  let sampledMs = 0;
  let busyMs = 0;
  let gcMs = 0;
  let at = profile.startTime;
  // A sample stands for the time until the next one; the deltas are in microseconds.
  for (let i = 0; i < profile.samples.length; i++) {
    at += profile.timeDeltas[i] ?? 0;
    if (windows && !windows.some(([from, to]) => at >= from && at < to)) continue;
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    sampledMs += ms;
    const leaf = byId.get(profile.samples[i]!);
    if (!leaf || leaf.callFrame.functionName === IDLE) continue;
    busyMs += ms;
    const frame = leaf.callFrame;
    if (frame.functionName === GC) gcMs += ms;
    const module = moduleOf(frame.url);
    add(selfByFunction, `${frame.functionName || '(anonymous)'} ${module}${frame.url ? `:${frame.lineNumber + 1}` : ''}`, ms);
    add(selfByModule, module, ms);
    const seen = new Set<string>();
    for (let id: number | undefined = leaf.id; id !== undefined; id = parent.get(id)) {
      const node = byId.get(id)!;
      // The root and Node's bootstrap frames carry no url; they would hold every sample.
      if (!node.callFrame.url) continue;
      const name = moduleOf(node.callFrame.url);
      if (DISPATCH.has(name)) continue;
      if (!seen.has(name)) {
        seen.add(name);
        add(inclusiveByModule, name, ms);
      }
    }
  }
  return {
    sampledMs,
    busyMs,
    gcMs,
    topFunctions: top(selfByFunction, busyMs, count),
    topFilesSelf: top(selfByModule, busyMs, count),
    topFilesInclusive: top(inclusiveByModule, busyMs, count),
  };
}

/** The summary of the one profile a process wrote into `dir`. */
export async function summarizeProfileDir(
  dir: string,
  count?: number,
  windows?: readonly (readonly [number, number])[],
): Promise<ProfileSummary> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.cpuprofile'));
  if (files.length !== 1) throw new Error(`expected one .cpuprofile in ${dir}, found ${files.length}`);
  return summarizeCpuProfile(JSON.parse(await readFile(join(dir, files[0]!), 'utf8')) as CpuProfile, count, windows);
}

export function formatProfile(summary: ProfileSummary): string {
  const pct = (e: ProfileEntry) => `${(e.share * 100).toFixed(1)} %`;
  const table = (title: string, entries: ProfileEntry[]) =>
    formatTable(
      [title, 'ms', 'of busy'],
      entries.map((e) => [e.name, e.ms.toFixed(0), pct(e)]),
    );
  return [
    `busy ${summary.busyMs.toFixed(0)} ms of ${summary.sampledMs.toFixed(0)} ms sampled, garbage collection ${summary.gcMs.toFixed(0)} ms`,
    table('function (self time)', summary.topFunctions),
    table('file or package (self time)', summary.topFilesSelf),
    table('file or package (with what it calls)', summary.topFilesInclusive),
  ].join('\n\n');
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  const [file, count] = process.argv.slice(2);
  if (!file) throw new Error('usage: node --import tsx bench/profile.ts <file.cpuprofile> [top]');
  const profile = JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
  console.log(formatProfile(summarizeCpuProfile(profile, count ? Number(count) : undefined)));
}
