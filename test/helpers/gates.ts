import { appendFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MODULES } from '../../src/modules/registry';
import type { AnyModule, ModuleContext } from '../../src/platform/modules';
import type { TestApp } from './app';
import { createStorage } from '../../src/platform/storage';

/** Where the quality gates leave their one-line summaries for `npm test` to print after Jest. */
export function gatesFile(): string {
  return path.join(os.tmpdir(), `hotel-pms-gates-${process.env.HOTEL_PMS_TEST_RUN ?? 'default'}.txt`);
}

/** Records a gate's figures, e.g. reportGate('cross-hotel', '1432 attempts, 0 leaks'). */
export function reportGate(gate: string, summary: string): void {
  appendFileSync(gatesFile(), `gate ${gate}: ${summary}\n`);
}

/** An operation by name, as the gates count them: `GET /api/hotels/:slug/rooms/:id`. */
export const operationKey = (route: { method: string; path: string }) =>
  `${route.method.toUpperCase()} ${route.path.replace(/\{(\w+)\}/g, ':$1')}`;

export interface Coverage {
  /** Declared operations the gate never exercised. */
  missing: string[];
  /** Operations the gate exercised that nothing declares (a stale table, a typo, a route that moved). */
  undeclared: string[];
  covered: number;
  declared: number;
  /** `covered / declared operations`, for the gate's summary line. */
  figure: string;
}

/** Compares, both ways, the operations a gate must cover with those it exercised (by name). */
export function compareCoverage(declared: Iterable<string>, exercised: Iterable<string>): Coverage {
  const must = new Set(declared);
  const did = new Set(exercised);
  const missing = [...must].filter((key) => !did.has(key)).sort();
  const undeclared = [...did].filter((key) => !must.has(key)).sort();
  const covered = must.size - missing.length;
  return { missing, undeclared, covered, declared: must.size, figure: `${covered}/${must.size} operations` };
}

const MODULES_DIR = path.resolve(__dirname, '../../src/modules');

/**
 * What the registry leaves out: every folder of src/modules holds `<area>.module.ts`, whose module the registry must
 * list. The gates derive their operations from the registry's routes, so a module dropped from it would shrink every
 * gate silently; with this check it fails them instead.
 */
export function registryGaps(registered: readonly AnyModule[] = MODULES): string[] {
  const listed = new Set(registered);
  const gaps: string[] = [];
  for (const entry of readdirSync(MODULES_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const file = path.join(MODULES_DIR, entry.name, `${entry.name}.module.ts`);
    let exports: Record<string, unknown>;
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      exports = require(file) as Record<string, unknown>;
    } catch (error) {
      gaps.push(`src/modules/${entry.name}: no ${entry.name}.module.ts to load (${(error as Error).message})`);
      continue;
    }
    const modules = Object.values(exports).filter(
      (value): value is AnyModule =>
        typeof value === 'object' && value !== null && 'name' in value && 'create' in value,
    );
    if (modules.length === 0) gaps.push(`src/modules/${entry.name}/${entry.name}.module.ts exports no module`);
    for (const module of modules) {
      if (!listed.has(module)) gaps.push(`module ${module.name} (src/modules/${entry.name}) is not in the registry`);
    }
  }
  return gaps;
}

/**
 * The gate's coverage problems, as lines for `expect(...).toEqual([])`: modules missing from the registry, declared
 * operations the gate did not exercise, and exercised ones nothing declares.
 */
export function coverageProblems(coverage: Coverage, registered: readonly AnyModule[] = MODULES): string[] {
  return [
    ...registryGaps(registered),
    ...coverage.missing.map((key) => `${key}: declared, never exercised`),
    ...coverage.undeclared.map((key) => `${key}: exercised, not declared`),
  ];
}

/**
 * Names the declared operation a request reached, from its method and raw URL (`/api/hotels/x/rooms/1?a=b` ->
 * `GET /api/hotels/:slug/rooms/:id`); where several match, the one with the most literal segments, as routing does.
 * Undefined for a URL no route declares.
 */
export function operationMatcher(
  routes: readonly { method: string; path: string }[],
): (method: string, url: string) => string | undefined {
  const patterns = routes.map((route) => {
    const segments = route.path.split('/');
    return {
      key: operationKey(route),
      method: route.method.toUpperCase(),
      segments,
      literals: segments.filter((segment) => !segment.startsWith(':')).length,
    };
  });
  return (method, url) => {
    const pathname = url.split('?')[0].replace(/(.)\/+$/, '$1');
    const segments = pathname.split('/');
    let best: (typeof patterns)[number] | undefined;
    for (const pattern of patterns) {
      if (pattern.method !== method.toUpperCase() || pattern.segments.length !== segments.length) continue;
      const matches = pattern.segments.every((segment, index) =>
        segment.startsWith(':') ? segments[index].length > 0 : segment === segments[index],
      );
      if (matches && (!best || pattern.literals > best.literals)) best = pattern;
    }
    return best?.key;
  };
}

/** What a gate runs on: the application of `modules`, and of its routes those of `only` (default: all). */
export interface GateScope {
  /** The modules the application is built from (default: the registry's). */
  modules?: readonly AnyModule[];
  /** Sweep only these modules' routes, e.g. the one a test plugs in (the figures are then not reported). */
  only?: readonly AnyModule[];
}

/** Whether `scope` sweeps a route of `t`: every route, or those the `only` modules declare, by name. */
export function inScope(
  t: Pick<TestApp, 'services' | 'db' | 'config' | 'listener'>,
  scope: GateScope,
): (route: { method: string; path: string }) => boolean {
  if (!scope.only) return () => true;
  const services = t.services as unknown as Record<string, unknown>;
  const context: ModuleContext = {
    db: t.db,
    config: t.config,
    listener: t.listener,
    storage: createStorage(t.config.storage),
    hotelCreated: () => Promise.reject(new Error('a gate reading routes creates no hotel')),
    personalData: [],
  };
  const keys = new Set(
    scope.only.flatMap((module) => module.routes?.(services[module.name], context) ?? []).map(operationKey),
  );
  return (route) => keys.has(operationKey(route));
}
