import { MODULES } from './modules/registry';
import { platformSchema, readPlatformConfig, validateEnvironment, type PlatformConfig } from './platform/config';
import type { AnyModule, ModuleSettings } from './platform/modules';

export { ConfigError, type PlatformConfig } from './platform/config';

/** The platform's configuration and every module's section (each module receives its own, see buildModules). */
export type Config = PlatformConfig & ModuleSettings<typeof MODULES>;

/**
 * Reads the environment once: the platform's variables and those each module's section declares, validated
 * together; a wrong or missing value stops start-up with a message naming the variable.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, modules: readonly AnyModule[] = MODULES): Config {
  const settings = modules.flatMap((module) => Object.entries(module.config ?? {}));
  const schema = settings.reduce((all, [, setting]) => all.concat(setting.variables), platformSchema);
  const values = validateEnvironment(schema, env);
  const config: Record<string, unknown> = { ...readPlatformConfig(values) };
  for (const [name, setting] of settings) {
    if (name in config) throw new Error(`configuration setting ${name} is declared twice`);
    config[name] = setting.read(values);
  }
  return config as unknown as Config;
}
