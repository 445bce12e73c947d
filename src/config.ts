import type Joi from 'joi';
import { MODULES } from './modules/registry';
import { platformSchema, readPlatformConfig, validateEnvironment, type PlatformConfig } from './platform/config';
import type { AnyModule, ModuleSettings } from './platform/modules';

export { ConfigError, type PlatformConfig } from './platform/config';

/** The platform's configuration and every module's section (each module receives its own, see buildModules). */
export type Config = PlatformConfig & ModuleSettings<typeof MODULES>;

const settingsOf = (modules: readonly AnyModule[]) => modules.flatMap((module) => Object.entries(module.config ?? {}));

function schemaOf(modules: readonly AnyModule[]): Joi.ObjectSchema {
  return settingsOf(modules).reduce((all, [, setting]) => all.concat(setting.variables), platformSchema);
}

/** Every environment variable the configuration reads (the reference in docs/operations.md lists them). */
export function configVariables(modules: readonly AnyModule[] = MODULES): string[] {
  return Object.keys(schemaOf(modules).describe().keys ?? {});
}

/**
 * Reads the environment once: the platform's variables and those each module's section declares, validated
 * together; a wrong or missing value stops start-up with a message naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, modules: readonly AnyModule[] = MODULES): Config {
  const values = validateEnvironment(schemaOf(modules), env);
  const config: Record<string, unknown> = { ...readPlatformConfig(values) };
  for (const [name, setting] of settingsOf(modules)) {
    if (name in config) throw new Error(`configuration setting ${name} is declared twice`);
    config[name] = setting.read(values);
  }
  return config as unknown as Config;
}
