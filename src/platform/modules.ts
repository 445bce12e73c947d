import type { Knex } from 'knex';
import type { Config } from '../config';
import type { Db } from './db/knex';
import type { PgListener } from './db/pg-listener';
import type { RouteDefinition } from './http/route';
import type { Logger } from './logger';
import type { Mailer } from './mail';
import type { HotelEventKind } from './realtime/events';
import type { SocketEndpoint } from './realtime/socket-endpoint';
import type { ScheduleDefinition } from './temporal/schedules';

/** What every module is built from. */
export interface ModuleContext {
  db: Db;
  config: Config;
  /** The API process's LISTEN connection (the worker has none): for services that wait on other replicas. */
  listener?: PgListener;
  /** Runs every module's `onHotelCreated` in the registration transaction (the rows a new hotel starts with). */
  hotelCreated(trx: Knex.Transaction, hotelId: string): Promise<void>;
}

/** What activities need besides the module's service: the worker's connections to the outside. */
export interface WorkerContext extends ModuleContext {
  mailer: Mailer;
}

/** What a module's WebSocket endpoints are built with: the API process's LISTEN connection and logger. */
export interface SocketContext extends ModuleContext {
  listener: PgListener;
  logger: Logger;
  /** Shorter heartbeats and hello deadlines than the protocol's (tests). */
  timings: SocketTimings;
}

export interface SocketTimings {
  heartbeatSeconds?: number;
  helloTimeoutMs?: number;
}

/** The activities a module registers (an object of async functions, e.g. a workflow contract's interface). */
export type Activities = object;

/**
 * How a business area plugs in: its service (built from the other modules' services it names in `uses`, and only
 * those), its routes, the activities the worker registers, its schedules, and the rows a new hotel starts with. The
 * registry (`src/modules/registry.ts`) lists the modules; the app, the worker, the activities and hotel creation are
 * built from it.
 */
export interface ModuleDefinition<Name extends string, Service, Deps> {
  name: Name;
  /** The other modules whose services `create` receives, by name (they are built first). */
  uses: readonly (keyof Deps & string)[];
  create(context: ModuleContext, deps: Deps): Service;
  routes?(service: Service, context: ModuleContext): RouteDefinition[];
  /** The worker's activities: thin calls into the service (and the services it uses). */
  activities?(service: Service, context: WorkerContext, deps: Deps): Activities;
  schedules?: readonly ScheduleDefinition[];
  /** The staff realtime events it publishes (documented in the AsyncAPI document of `/ws`). */
  events?: readonly HotelEventKind<never>[];
  onHotelCreated?(service: Service, trx: Knex.Transaction, hotelId: string): Promise<void>;
  /** Its WebSocket endpoints (each on its own path): the API process mounts them and closes them at shutdown. */
  sockets?(service: Service, context: SocketContext): SocketEndpoint[];
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModule = ModuleDefinition<string, any, any>;

// Deps defaults to no dependencies: a module that names none gets `{}`.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function defineModule<const Name extends string, Service, Deps = {}>(
  module: ModuleDefinition<Name, Service, Deps>,
): ModuleDefinition<Name, Service, Deps> {
  return module;
}

/** The services of a list of modules, by module name. */
export type ServicesOf<Modules extends readonly AnyModule[]> = {
  [M in Modules[number] as M['name']]: ReturnType<M['create']>;
};

type DepsOf<M> = M extends ModuleDefinition<string, unknown, infer Deps> ? Deps : never;

/**
 * `true` for each module whose declared dependencies are what the registry builds under those names (a module that
 * asks for `pricing: QuoteService` gets exactly that), so a wrong or missing dependency fails the type check.
 */
export type DependenciesSatisfied<Modules extends readonly AnyModule[]> = {
  [M in Modules[number] as M['name']]: Pick<
    ServicesOf<Modules>,
    keyof DepsOf<M> & keyof ServicesOf<Modules>
  > extends DepsOf<M>
    ? true
    : false;
};

/** The modules of the registry, built: their services, and what the app and the worker collect from them. */
export interface ModuleRuntime<Modules extends readonly AnyModule[]> {
  services: ServicesOf<Modules>;
  context: ModuleContext;
  routes(): RouteDefinition[];
  /** Every module's activities, for the worker (two modules registering one name is a start-up error). */
  activities(mailer: Mailer): Activities;
  schedules(): ScheduleDefinition[];
  events(): HotelEventKind<never>[];
  /** Every module's WebSocket endpoints, built (the API process only: it has the LISTEN connection). */
  sockets(context: Pick<SocketContext, 'logger' | 'timings'>): SocketEndpoint[];
}

/** Builds every module's service in list order, each from the services it names; refuses names not built yet. */
export function buildModules<Modules extends readonly AnyModule[]>(
  modules: Modules,
  base: Pick<ModuleContext, 'db' | 'config' | 'listener'>,
): ModuleRuntime<Modules> {
  const built = new Map<string, unknown>();
  const depsOf = new Map<string, Record<string, unknown>>();
  const context: ModuleContext = {
    ...base,
    async hotelCreated(trx, hotelId) {
      for (const module of modules) await module.onHotelCreated?.(built.get(module.name), trx, hotelId);
    },
  };
  for (const module of modules) {
    if (built.has(module.name)) throw new Error(`module ${module.name} is listed twice`);
    const deps = Object.fromEntries(
      module.uses.map((name) => {
        if (!built.has(name)) throw new Error(`module ${module.name} uses ${name}, which is not listed before it`);
        return [name, built.get(name)];
      }),
    );
    depsOf.set(module.name, deps);
    built.set(module.name, module.create(context, deps));
  }
  return {
    services: Object.fromEntries(built) as ServicesOf<Modules>,
    context,
    routes: () => modules.flatMap((module) => module.routes?.(built.get(module.name), context) ?? []),
    activities(mailer) {
      const all: Record<string, unknown> = {};
      for (const module of modules) {
        const own = module.activities?.(built.get(module.name), { ...context, mailer }, depsOf.get(module.name)) ?? {};
        for (const [name, activity] of Object.entries(own) as [string, unknown][]) {
          if (name in all) throw new Error(`activity ${name} is registered by two modules`);
          all[name] = activity;
        }
      }
      return all;
    },
    schedules: () => modules.flatMap((module) => module.schedules ?? []),
    events: () => modules.flatMap((module) => module.events ?? []),
    sockets({ logger, timings }) {
      const { listener } = context;
      if (!listener)
        throw new Error('WebSocket endpoints are served by the API process, which has a LISTEN connection');
      const socketContext = { ...context, listener, logger, timings };
      return modules.flatMap((module) => module.sockets?.(built.get(module.name), socketContext) ?? []);
    },
  };
}
