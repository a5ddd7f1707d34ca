type Maybe<T> = T | undefined | null | false;

/** Polls `probe` every 100 ms until it answers something truthy, which it returns; throws after `ms`. */
export async function until<T>(what: string, probe: () => Promise<Maybe<T>> | Maybe<T>, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
