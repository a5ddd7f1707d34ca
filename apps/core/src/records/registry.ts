import type { Resource } from './resource.js';

/** All resources by slug; the single source the router, the OpenAPI document and tests read. */
export class Registry {
  private readonly bySlug = new Map<string, Resource>();

  constructor(resources: Resource[]) {
    for (const r of resources) {
      if (this.bySlug.has(r.slug)) throw new Error(`duplicate resource ${r.slug}`);
      this.bySlug.set(r.slug, r);
    }
  }

  get(slug: string): Resource | undefined {
    return this.bySlug.get(slug);
  }

  require(slug: string): Resource {
    const r = this.bySlug.get(slug);
    if (!r) throw new Error(`unknown resource ${slug}`);
    return r;
  }

  all(): Resource[] {
    return [...this.bySlug.values()];
  }
}
