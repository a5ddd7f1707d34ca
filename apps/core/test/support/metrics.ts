/** A Prometheus text exposition, read back: the sum of the series of `name` whose labels include `labels`. */
export class Scrape {
  private readonly series: { name: string; labels: Record<string, string>; value: number }[] = [];

  constructor(readonly text: string) {
    for (const line of text.split('\n')) {
      if (!line || line.startsWith('#')) continue;
      const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels: Record<string, string> = {};
      for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[key!] = value!;
      this.series.push({ name: match[1]!, labels, value: Number(match[3]) });
    }
  }

  has(name: string, labels: Record<string, string> = {}): boolean {
    return this.matching(name, labels).length > 0;
  }

  /** 0 when no series matches: a labelled counter appears once it first moves. */
  value(name: string, labels: Record<string, string> = {}): number {
    return this.matching(name, labels).reduce((sum, s) => sum + s.value, 0);
  }

  private matching(name: string, labels: Record<string, string>) {
    return this.series.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  }
}

export async function scrape(baseUrl: string): Promise<Scrape> {
  const res = await fetch(`${baseUrl}/metrics`);
  if (res.status !== 200) throw new Error(`GET ${baseUrl}/metrics answered ${res.status}`);
  return new Scrape(await res.text());
}

/** How much each listed counter moved between two scrapes. */
export const moved = (before: Scrape, after: Scrape, name: string, labels: Record<string, string> = {}) =>
  after.value(name, labels) - before.value(name, labels);
