import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { samplePayload } from '../../core/src/notifications/samples';
import { TRIGGER_EVENT_CODES } from '../app/core/event-subscription.server';
import { triggersFor } from '../app/loop/triggers.server';
import { FLOW_ACTION_HANDLES, FLOW_ACTIONS, TRIGGER_HANDLES, TRIGGERS } from '../app/shopify/flow-extensions';

/**
 * The app's one list of Flow extensions (app/shopify/flow-extensions.ts) against what the repository
 * ships in extensions/, and shopify.app.toml's webhook subscriptions against their handlers.
 */
const extensions = new URL('../../../extensions/', import.meta.url);
const app = new URL('../', import.meta.url);

const tomls = readdirSync(extensions, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && existsSync(new URL(`${entry.name}/shopify.extension.toml`, extensions)))
  .map((entry) => {
    const text = readFileSync(new URL(`${entry.name}/shopify.extension.toml`, extensions), 'utf8');
    const value = (key: string) => new RegExp(`^\\s*${key} = "([^"]*)"`, 'm').exec(text)?.[1];
    return { folder: entry.name, type: value('type'), handle: value('handle'), name: value('name'), text };
  });

describe('Flow extensions', () => {
  it('the triggers the app sends are the flow_trigger extensions, each in extensions/<handle>/', () => {
    const triggers = tomls.filter((t) => t.type === 'flow_trigger');
    expect(triggers.map((t) => t.handle).sort()).toEqual([...TRIGGER_HANDLES].sort());
    for (const t of triggers) {
      expect(t.folder).toBe(t.handle);
      // The admin's checklist names it as Flow does.
      expect(TRIGGERS[t.handle as keyof typeof TRIGGERS]).toBe(t.name);
    }
  });

  it('the actions are the flow_action extensions, each in extensions/flow-<handle>/ calling its route', () => {
    const actions = tomls.filter((t) => t.type === 'flow_action');
    expect(actions.map((t) => t.handle).sort()).toEqual([...FLOW_ACTION_HANDLES].sort());
    for (const a of actions) {
      expect(a.folder).toBe(`flow-${a.handle}`);
      expect(FLOW_ACTIONS[a.handle as keyof typeof FLOW_ACTIONS]).toBe(a.name);
      expect(a.text).toMatch(new RegExp(`runtime_url = "[^"]*/flow/${a.handle}"`));
      expect(existsSync(new URL(`app/routes/flow.${a.handle}.tsx`, app)), a.handle).toBe(true);
    }
  });

  it('every field a trigger sends is declared by its extension, the customer as its customer_reference', () => {
    const now = new Date('2026-03-10T12:00:00.000Z');
    for (const code of TRIGGER_EVENT_CODES) {
      for (const send of triggersFor(code, samplePayload(code, now, 'en'), new Set())) {
        const toml = tomls.find((t) => t.handle === send.handle)!;
        expect(toml.text, send.handle).toContain('type = "customer_reference"');
        for (const key of Object.keys(send.fields)) expect(toml.text, `${send.handle} ${key}`).toContain(`key = "${key}"`);
      }
    }
  });
});

describe('UI extensions', () => {
  const ui = tomls.filter((t) => t.type === 'ui_extension');
  const workspace = readFileSync(new URL('../../pnpm-workspace.yaml', app), 'utf8');

  it('each is a workspace package on API 2026-01 whose build bundles its targets’ module, for targets its @shopify/ui-extensions knows', () => {
    expect(ui.map((t) => t.folder).sort()).toEqual(['loyalty-checkout-rewards', 'loyalty-pos', 'loyalty-rewards', 'loyalty-thank-you']);
    for (const { folder, text } of ui) {
      expect(workspace, folder).toContain(`  - extensions/${folder}\n`);
      expect(text, folder).toMatch(/^api_version = "2026-01"$/m);
      expect(text, folder).toContain('network_access = true');
      const build = readFileSync(new URL(`${folder}/scripts/build.mjs`, extensions), 'utf8');
      // What the package builds against: every surface's list of targets.
      const surfaces = new URL(`${folder}/node_modules/@shopify/ui-extensions/build/ts/surfaces/`, extensions);
      const known = readdirSync(surfaces, { withFileTypes: true })
        .filter((entry) => entry.isDirectory())
        .map((entry) => readFileSync(new URL(`${entry.name}/extension-targets.d.ts`, surfaces), 'utf8'))
        .join('\n');
      const targets = [...text.matchAll(/^target = "([^"]+)"\nmodule = "\.\/([^"]+)"$/gm)];
      expect(targets.length, folder).toBeGreaterThan(0);
      for (const [, target, module] of targets) {
        expect(known, `${folder} ${target}`).toContain(`'${target}': RenderExtension<`);
        expect(build, `${folder} ${module}`).toContain(`'${module}'`);
        expect(existsSync(new URL(`${folder}/${module}`, extensions)), `${folder} ${module}`).toBe(true);
      }
    }
  });

  it("each calls a route of the app, which answers the extension's CORS preflight", () => {
    for (const { folder } of ui) {
      const load = readFileSync(new URL(`${folder}/src/load.ts`, extensions), 'utf8');
      const path = /fetch\(`\$\{appUrl\}\/([^`?]+)/.exec(load)?.[1];
      const route = new URL(`app/routes/${path?.replace(/\//g, '.')}.tsx`, app);
      expect(existsSync(route), `${folder}: ${path}`).toBe(true);
      expect(readFileSync(route, 'utf8'), folder).toContain('export const action');
    }
  });
});

describe('shopify.app.toml', () => {
  it('annotates each webhook subscription with its handler, the route for its uri', () => {
    const text = readFileSync(new URL('shopify.app.toml', app), 'utf8');
    const blocks = text.split('[[webhooks.subscriptions]]');
    expect(blocks.length).toBeGreaterThan(1);
    for (const [i, block] of blocks.slice(1).entries()) {
      // The comment right above the block names its handler.
      const handler = /# handler: (\S+)[^\n]*\n\s*$/.exec(blocks[i]!)?.[1];
      const uri = /uri = "([^"]+)"/.exec(block)?.[1];
      expect(handler && existsSync(new URL(handler, app)), `${uri}: ${handler}`).toBe(true);
      expect(handler).toBe(`app/routes/${uri?.slice(1).replace(/\//g, '.')}.tsx`);
    }
    expect(text).toContain('topics = ["app/scopes_update"]');
  });
});
