import type { Knex } from 'knex';
import { SHARED_SETTINGS, type ConfigSection, type SharedSettings } from './config';
import type { Db } from './db/knex';
import type { ModuleFixtures } from './fixtures';
import type { PgListener } from './db/pg-listener';
import type { HotelOrigins } from './http/cors-policy';
import type { RouteDefinition } from './http/route';
import type { Logger } from './logger';
import type { Mailer } from './mail';
import { PLATFORM_PERSONAL_DATA, type ErasurePlace } from './personal-data';
import type { HotelEventKind } from './realtime/events';
import { activityBoundary, type RefusalFailure } from './temporal/activity-boundary';
import type { SocketEndpoint } from './realtime/socket-endpoint';
import type { ScheduleDefinition } from './temporal/schedules';
import type { WorkflowQueries } from './temporal/workflow-queries';
import { createStorage, type Storage } from './storage';

/** What a module reads of the configuration: the platform's shared settings and its own section, nothing else. */
export type ModuleConfig<Settings = unknown> = SharedSettings & Settings;

/** What every module is built from. */
export interface ModuleContext<Settings = unknown> {
  db: Db;
  config: ModuleConfig<Settings>;
  /** The object store: one client for every module of the process. */
  storage: Storage;
  /** The API process's LISTEN connection (the worker has none): for services that wait on other replicas. */
  listener?: PgListener;
  /** The API process's queries of running workflows, over its one Temporal connection (the worker has none). */
  workflows?: Pick<WorkflowQueries, 'ask'>;
  /** Runs every module's `onHotelCreated` in the registration transaction (the rows a new hotel starts with). */
  hotelCreated(trx: Knex.Transaction, hotelId: string): Promise<void>;
  /** Every place guests' personal data lives: each module's `personalData`, then the platform's own tables. */
  personalData: readonly ErasurePlace[];
}

/** What activities need besides the module's service: the worker's connections to the outside. */
export interface WorkerContext<Settings = unknown> extends ModuleContext<Settings> {
  mailer: Mailer;
}

/** What a module's WebSocket endpoints are built with: the API process's LISTEN connection and logger. */
export interface SocketContext<Settings = unknown> extends ModuleContext<Settings> {
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
export interface ModuleDefinition<Name extends string, Service, Deps, Settings = unknown> {
  name: Name;
  /** The other modules whose services `create` receives, by name (they are built first). */
  uses: readonly (keyof Deps & string)[];
  create(context: ModuleContext<Settings>, deps: Deps): Service;
  routes?(service: Service, context: ModuleContext<Settings>): RouteDefinition[];
  /** The worker's activities: thin calls into the service (and the services it uses). */
  activities?(service: Service, context: WorkerContext<NoInfer<Settings>>, deps: Deps): Activities;
  /** The failure its activities' refusals become at the activity boundary, for its workflows to tell them apart. */
  refusals?: RefusalFailure;
  schedules?: readonly ScheduleDefinition[];
  /** The staff realtime events it publishes (documented in the AsyncAPI document of `/ws`). */
  events?: readonly HotelEventKind<never>[];
  onHotelCreated?(service: Service, trx: Knex.Transaction, hotelId: string): Promise<void>;
  /**
   * Where it keeps guests' personal data (names, contacts, documents, free text that may hold them): each place is
   * erased when retention erases a guest (docs/decisions/retention.md). A table with such columns and no place fails
   * the personal-data check.
   */
  personalData?: readonly ErasurePlace[];
  /** For the quality gates: how to seed one of each of its records, and where requests name them. */
  fixtures?: NoInfer<ModuleFixtures<Service>>;
  /** Its WebSocket endpoints (each on its own path): the API process mounts them and closes them at shutdown. */
  sockets?(service: Service, context: SocketContext<NoInfer<Settings>>): SocketEndpoint[];
  /**
   * Its configuration section: the environment variables it reads, validated at start with the platform's
   * (src/config.ts assembles them); `create`, `routes` and `activities` get these settings in `context.config`.
   */
  config?: ConfigSection<Settings>;
  /** Its public routes under `prefix`, if they differ from the platform's defaults (the app applies this). */
  http?: ModuleHttpPolicy<Service>;
}

/**
 * The HTTP policy of a module's public routes under `prefix` (e.g. the widget on hotels' own sites): a smaller JSON
 * body limit (413 above), and the browser origins each hotel allows on `<prefix>/<slug>/…` (CORS, no credentials).
 */
export interface ModuleHttpPolicy<Service> {
  prefix: string;
  bodyLimit?: string;
  hotelOrigins?(service: Service, slug: string): Promise<string[]>;
}

/** A module's activities as the worker registers them: each behind the activity boundary, refusals translated. */
export function moduleActivities<Service, Deps, Settings>(
  module: Pick<ModuleDefinition<string, Service, Deps, Settings>, 'activities' | 'refusals'>,
  service: Service,
  context: WorkerContext<Settings>,
  deps: Deps,
): Activities {
  return activityBoundary(module.activities?.(service, context, deps) ?? {}, module.refusals);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyModule = ModuleDefinition<string, any, any, any>;

// Deps defaults to no dependencies: a module that names none gets `{}`.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export function defineModule<const Name extends string, Service, Deps = {}, Settings = {}>(
  module: ModuleDefinition<Name, Service, Deps, Settings>,
): ModuleDefinition<Name, Service, Deps, Settings> {
  return module;
}

/** The services of a list of modules, by module name. */
export type ServicesOf<Modules extends readonly AnyModule[]> = {
  [M in Modules[number] as M['name']]: ReturnType<M['create']>;
};

type DepsOf<M> = M extends ModuleDefinition<string, unknown, infer Deps> ? Deps : never;

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type SettingsOf<M> = M extends ModuleDefinition<string, any, any, infer Settings> ? Settings : never;
type Intersection<U> = (U extends unknown ? (all: U) => void : never) extends (all: infer I) => void ? I : never;

/** Every module's settings, as the configuration holds them (src/config.ts). */
export type ModuleSettings<Modules extends readonly AnyModule[]> = Intersection<SettingsOf<Modules[number]>>;

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
  routes(): RouteDefinition[];
  /** Every module's activities, for the worker (two modules registering one name is a start-up error). */
  activities(mailer: Mailer): Activities;
  schedules(): ScheduleDefinition[];
  events(): HotelEventKind<never>[];
  /** Every module's WebSocket endpoints, built (the API process only: it has the LISTEN connection). */
  sockets(context: Pick<SocketContext, 'logger' | 'timings'>): SocketEndpoint[];
  /** The modules' public prefixes with their own JSON body limits, and those whose origins hotels configure. */
  bodyLimits(): { prefix: string; limit: string }[];
  hotelOrigins(): HotelOrigins[];
}

/** A module's `context.config`: the shared settings and the settings its section declares, picked from `config`. */
function configOf(module: AnyModule, config: SharedSettings): ModuleConfig {
  const all = config as unknown as Record<string, unknown>;
  return Object.fromEntries(
    [...SHARED_SETTINGS, ...Object.keys(module.config ?? {})].map((name) => {
      if (!(name in all)) throw new Error(`module ${module.name}: the configuration has no setting ${name}`);
      return [name, all[name]];
    }),
  ) as unknown as ModuleConfig;
}

/** Every place guests' personal data lives: each module's `personalData`, then the platform's own tables. */
export function personalDataOf(modules: readonly AnyModule[]): ErasurePlace[] {
  return [...modules.flatMap((module) => module.personalData ?? []), ...PLATFORM_PERSONAL_DATA];
}

/** Builds every module's service in list order, each from the services it names; refuses names not built yet. */
export function buildModules<Modules extends readonly AnyModule[]>(
  modules: Modules,
  base: {
    db: Db;
    config: SharedSettings;
    listener?: PgListener;
    storage?: Storage;
    workflows?: Pick<WorkflowQueries, 'ask'>;
  },
): ModuleRuntime<Modules> {
  const built = new Map<string, unknown>();
  const depsOf = new Map<string, Record<string, unknown>>();
  const shared = {
    ...base,
    storage: base.storage ?? createStorage(base.config.storage),
    personalData: personalDataOf(modules),
    async hotelCreated(trx: Knex.Transaction, hotelId: string) {
      for (const module of modules) await module.onHotelCreated?.(built.get(module.name), trx, hotelId);
    },
  };
  const contexts = new Map(
    modules.map((module) => [module.name, { ...shared, config: configOf(module, base.config) }]),
  );
  const context = (module: AnyModule): ModuleContext => contexts.get(module.name)!;
  for (const module of modules) {
    if (built.has(module.name)) throw new Error(`module ${module.name} is listed twice`);
    const deps = Object.fromEntries(
      module.uses.map((name) => {
        if (!built.has(name)) throw new Error(`module ${module.name} uses ${name}, which is not listed before it`);
        return [name, built.get(name)];
      }),
    );
    depsOf.set(module.name, deps);
    built.set(module.name, module.create(context(module), deps));
  }
  return {
    services: Object.fromEntries(built) as ServicesOf<Modules>,
    routes: () => modules.flatMap((module) => module.routes?.(built.get(module.name), context(module)) ?? []),
    activities(mailer) {
      const all: Record<string, unknown> = {};
      for (const module of modules) {
        const own = moduleActivities(
          module,
          built.get(module.name),
          { ...context(module), mailer },
          depsOf.get(module.name),
        );
        for (const [name, activity] of Object.entries(own) as [string, unknown][]) {
          if (name in all) throw new Error(`activity ${name} is registered by two modules`);
          all[name] = activity;
        }
      }
      return all;
    },
    schedules: () => modules.flatMap((module) => module.schedules ?? []),
    events: () => modules.flatMap((module) => module.events ?? []),
    bodyLimits: () =>
      modules.flatMap(({ http }) => (http?.bodyLimit ? [{ prefix: http.prefix, limit: http.bodyLimit }] : [])),
    hotelOrigins: () =>
      modules.flatMap(({ name, http }) => {
        const originsOf = http?.hotelOrigins;
        if (!originsOf) return [];
        return [{ prefix: `${http.prefix}/`, originsOf: (slug: string) => originsOf(built.get(name), slug) }];
      }),
    sockets({ logger, timings }) {
      const { listener } = base;
      if (!listener)
        throw new Error('WebSocket endpoints are served by the API process, which has a LISTEN connection');
      return modules.flatMap(
        (module) => module.sockets?.(built.get(module.name), { ...context(module), listener, logger, timings }) ?? [],
      );
    },
  };
}
