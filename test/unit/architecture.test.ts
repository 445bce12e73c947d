import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ESLint, type Linter } from 'eslint';
import tseslint from 'typescript-eslint';

/**
 * The layout's rules, checked on the code itself: no import circles anywhere (a module and its workflows meet in
 * contract files instead), modules show only their services and types, and the lint rule that keeps modules out of
 * each other's internals really fails a planted import.
 */

const ROOT = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const boundaries = require('../../eslint.boundaries.cjs') as Linter.Config[];
const SOURCE_DIRS = ['src', 'workflows', 'activities', 'workers'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) return sourceFiles(full);
    return full.endsWith('.ts') && !full.endsWith('.d.ts') ? [full] : [];
  });
}

function resolveImport(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  return [`${base}.ts`, path.join(base, 'index.ts')].find((candidate) => existsSync(candidate));
}

/** Every relative import (type-only ones too: a circle of types is still a circle of knowledge). */
function importGraph(files: string[]): Map<string, string[]> {
  const pattern = /(?:import|export)\s[^'"]*?from\s+'(\.[^']+)'|import\s+'(\.[^']+)'/g;
  return new Map(
    files.map((file) => {
      const text = readFileSync(file, 'utf8');
      const targets = [...text.matchAll(pattern)]
        .map((match) => resolveImport(file, match[1] ?? match[2]))
        .filter((target): target is string => target !== undefined);
      return [file, targets];
    }),
  );
}

/** Strongly connected components of more than one file (Tarjan): each is an import circle. */
function circles(graph: Map<string, string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (file: string) => {
    index.set(file, counter);
    low.set(file, counter++);
    stack.push(file);
    onStack.add(file);
    for (const target of graph.get(file) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(file, Math.min(low.get(file)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(file, Math.min(low.get(file)!, index.get(target)!));
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(path.relative(ROOT, member));
      } while (member !== file);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return found;
}

it('has no import circles in src, workflows, activities or workers', () => {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
  expect(files.length).toBeGreaterThan(100);
  expect(circles(importGraph(files))).toEqual([]);
});

/** Every named import of the source files: what it names and the file it resolves to (relative imports only). */
function namedImports(files: string[]) {
  return files.flatMap((file) =>
    [...readFileSync(file, 'utf8').matchAll(/import\s+(?:type\s+)?\{([^}]*)\}\s+from\s+'(\.[^']+)'/g)].map((match) => ({
      file: path.relative(ROOT, file),
      names: match[1].split(',').map((name) => name.trim().replace(/^type\s+/, '')),
      target: path.relative(ROOT, resolveImport(file, match[2]) ?? match[2]),
    })),
  );
}

const MONEY_ARITHMETIC = [
  'parseMoney',
  'formatMoney',
  'fitsMoneyColumn',
  'MAX_STORED_CENTS',
  'parsePercent',
  'applyPercent',
];

it('keeps money arithmetic in one place, platform/money, which everything that counts money imports', () => {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
  const elsewhere = namedImports(files)
    .filter(
      ({ names, target }) =>
        names.some((name) => MONEY_ARITHMETIC.includes(name)) && target !== 'src/platform/money.ts',
    )
    .map(({ file, target }) => `${file} takes money arithmetic from ${target}`);
  const definitions = files
    .filter((file) => path.relative(ROOT, file) !== 'src/platform/money.ts')
    .filter((file) =>
      new RegExp(`(?:function|const)\\s+(?:${MONEY_ARITHMETIC.join('|')})\\b`).test(readFileSync(file, 'utf8')),
    )
    .map((file) => `${path.relative(ROOT, file)} defines money arithmetic`);
  expect([...elsewhere, ...definitions]).toEqual([]);
});

it('lets no module but payments talk to the payment provider (YooKassa); the others go through its service', () => {
  const files = SOURCE_DIRS.flatMap((dir) => sourceFiles(path.join(ROOT, dir)));
  const talking = [...importGraph(files)]
    .filter(([, targets]) => targets.some((target) => target.startsWith(path.join(ROOT, 'src/integrations/yookassa/'))))
    .map(([file]) => path.relative(ROOT, file))
    .filter((file) => !file.startsWith('src/integrations/yookassa/'));
  expect(talking.length).toBeGreaterThan(0);
  expect(talking.filter((file) => !file.startsWith('src/modules/payments/'))).toEqual([]);
});

it("a module's index shows its service and types, never a repository", () => {
  const modulesDir = path.join(ROOT, 'src/modules');
  const leaks = readdirSync(modulesDir)
    .filter((entry) => existsSync(path.join(modulesDir, entry, 'index.ts')))
    .flatMap((module) => {
      const text = readFileSync(path.join(modulesDir, module, 'index.ts'), 'utf8');
      const exported = [...text.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)].flatMap((match) =>
        match[1].split(',').map((name) =>
          name
            .trim()
            .split(/\s+as\s+/)
            .pop()!
            .replace(/^type\s+/, ''),
        ),
      );
      return exported.filter((name) => /repository/i.test(name)).map((name) => `${module}: ${name}`);
    });
  expect(leaks).toEqual([]);
});

/** A file longer than this is split by concern (issue 24): small files and functions are easier to review. */
const MAX_LINES = 400;

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

it(`has no file in src over ${MAX_LINES} lines`, () => {
  const long = sourceFiles(path.join(ROOT, 'src'))
    .map((file) => `${path.relative(ROOT, file)} ${lineCount(readFileSync(file, 'utf8'))}`)
    .filter((entry) => Number(entry.split(' ')[1]) > MAX_LINES);
  expect(long).toEqual([]);
});

it("only the bookings lifecycle moves a booking's status: the workflow's signal and the turnover clean are its own", () => {
  const movers = sourceFiles(path.join(ROOT, 'src'))
    .filter((file) => /\.signalStatus\(|\.createTurnoverTask\(/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(ROOT, file));
  expect(movers).toEqual(['src/modules/bookings/bookings.lifecycle.ts']);
  // The signal itself is made in one place, the effects' `signalStatus` that the lifecycle alone calls.
  const signallers = sourceFiles(path.join(ROOT, 'src'))
    .filter((file) => /\bbookingStatusSignal\b/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(ROOT, file));
  expect(signallers).toEqual(['src/modules/bookings/bookings.effects.ts']);
});

it('the bookings services receive their repository: only the module and its activities build it from the database', () => {
  const dir = path.join(ROOT, 'src/modules/bookings');
  const importers = readdirSync(dir).filter((file) =>
    /^import \{[^}]*\} from '\.\/bookings\.repository'/m.test(readFileSync(path.join(dir, file), 'utf8')),
  );
  expect(importers).toEqual(['bookings.activities.ts', 'bookings.module.ts']);
});

describe('the module boundary lint rule', () => {
  const eslint = new ESLint({
    cwd: ROOT,
    overrideConfigFile: true,
    overrideConfig: [{ files: ['**/*.ts'], languageOptions: { parser: tseslint.parser } }, ...boundaries],
  });
  const lint = async (filePath: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
    return result.messages.map((message) => message.ruleId);
  };

  it("fails a module that imports another module's repository or internals", async () => {
    expect(
      await lint(
        'src/modules/guests/planted.ts',
        "import { bookingsRepository } from '../bookings/bookings.repository';",
      ),
    ).toEqual(['no-restricted-imports']);
    expect(
      await lint('src/modules/rooms/planted.ts', "import { createQuoteService } from '../pricing/pricing.quote';"),
    ).toEqual(['no-restricted-imports']);
  });

  it("lets a module use another's index and the platform; keeps the platform out of the modules", async () => {
    expect(await lint('src/modules/guests/planted.ts', "import type { BookingsService } from '../bookings';")).toEqual(
      [],
    );
    expect(
      await lint('src/modules/guests/planted.ts', "import { validate } from '../../platform/http/validate';"),
    ).toEqual([]);
    expect(await lint('src/platform/http/planted.ts', "import type { Hotel } from '../../modules/hotels';")).toEqual([
      'no-restricted-imports',
    ]);
  });
});

const TEMPORAL_IMPORT = /(?:import|export)\s[^'"]*?from\s+'(@temporalio\/[^']+)'|import\s+'(@temporalio\/[^']+)'/g;

/**
 * Services never import Temporal: in a module only its `<area>.activities.ts` may, and only `@temporalio/activity`
 * (the attempt's context, failures with a retry delay); refusals become failures at the activity boundary.
 */
function temporalImportProblems(file: string, text: string): string[] {
  const [, area, name] = /^src\/modules\/([^/]+)\/(.+)$/.exec(file) ?? [];
  const allowed = name === `${area}.activities.ts` ? ['@temporalio/activity'] : [];
  return [...text.matchAll(TEMPORAL_IMPORT)]
    .map((match) => match[1] ?? match[2])
    .filter((specifier) => !allowed.includes(specifier))
    .map((specifier) => `${file}: ${specifier}`);
}

/**
 * A module's activities are one `<area>.activities.ts` implementing its contracts, and its definition names them in
 * one line (`activities: ...`) with what it imports from that file; no other file of the module is an activities file.
 */
function activitiesFileProblems(area: string, files: Record<string, string>): string[] {
  const definition = files[`${area}.module.ts`] ?? '';
  const line = /^\s*activities[:(].*$/m.exec(definition)?.[0];
  const problems = Object.keys(files)
    .filter((name) => name.endsWith('.activities.ts') && name !== `${area}.activities.ts`)
    .map((name) => `${area}: ${name} is not ${area}.activities.ts`);
  if (!line) return problems;
  const imported = new RegExp(`import\\s+\\{([^}]*)\\}\\s+from\\s+'\\./${area}\\.activities'`).exec(definition)?.[1];
  const names = (imported ?? '').split(',').map((entry) =>
    entry
      .trim()
      .split(/\s+as\s+/)
      .pop()!,
  );
  const named = names.some((name) => name && new RegExp(`\\b${name}\\b`).test(line));
  if (!line.trim().endsWith(',') || !named)
    problems.push(`${area}: activities not one line from ${area}.activities.ts`);
  return problems;
}

function moduleFiles(area: string): Record<string, string> {
  const dir = path.join(ROOT, 'src/modules', area);
  return Object.fromEntries(
    readdirSync(dir)
      .filter((name) => name.endsWith('.ts'))
      .map((name) => [name, readFileSync(path.join(dir, name), 'utf8')]),
  );
}

describe("the worker's side of a module", () => {
  const areas = readdirSync(path.join(ROOT, 'src/modules')).filter((entry) =>
    statSync(path.join(ROOT, 'src/modules', entry)).isDirectory(),
  );

  it('no module file imports Temporal but its activities file, and that only @temporalio/activity', () => {
    const problems = areas.flatMap((area) =>
      Object.entries(moduleFiles(area)).flatMap(([name, text]) =>
        temporalImportProblems(`src/modules/${area}/${name}`, text),
      ),
    );
    expect(areas.length).toBeGreaterThan(20);
    expect(problems).toEqual([]);
  });

  it("each module's activities are its <area>.activities.ts, named by one line of its definition", () => {
    const withActivities = areas.filter((area) =>
      /^\s*activities[:(]/m.test(moduleFiles(area)[`${area}.module.ts`] ?? ''),
    );
    expect(withActivities.length).toBeGreaterThan(10);
    expect(areas.flatMap((area) => activitiesFileProblems(area, moduleFiles(area)))).toEqual([]);
  });

  it('the checks fail planted defects', () => {
    expect(
      temporalImportProblems(
        'src/modules/cards/cards.service.ts',
        "import { ApplicationFailure } from '@temporalio/common';",
      ),
    ).toEqual(['src/modules/cards/cards.service.ts: @temporalio/common']);
    expect(
      temporalImportProblems('src/modules/tv/tv.activities.ts', "import type { Duration } from '@temporalio/common';"),
    ).toEqual(['src/modules/tv/tv.activities.ts: @temporalio/common']);
    expect(
      temporalImportProblems('src/modules/tv/push.activities.ts', "import { Context } from '@temporalio/activity';"),
    ).toHaveLength(1);
    expect(
      temporalImportProblems('src/modules/tv/tv.activities.ts', "import { Context } from '@temporalio/activity';"),
    ).toEqual([]);
    const inline = { 'fiscal.module.ts': 'export const m = defineModule({\n  activities: (fiscal) => ({\n' };
    expect(activitiesFileProblems('fiscal', inline)).toEqual([
      'fiscal: activities not one line from fiscal.activities.ts',
    ]);
    const elsewhere = {
      'fiscal.module.ts': "import { fiscalActivities } from './fiscal.jobs';\n  activities: fiscalActivities,\n",
      'print.activities.ts': '',
    };
    expect(activitiesFileProblems('fiscal', elsewhere)).toEqual([
      'fiscal: print.activities.ts is not fiscal.activities.ts',
      'fiscal: activities not one line from fiscal.activities.ts',
    ]);
    const oneLine = {
      'fiscal.module.ts': "import { fiscalActivities } from './fiscal.activities';\n  activities: fiscalActivities,\n",
    };
    expect(activitiesFileProblems('fiscal', oneLine)).toEqual([]);
  });
});

it('the processes reach the modules only through the registry (routes, sockets, activities, schedules)', () => {
  const entryPoints = ['src/main.ts', 'src/app.ts', 'workers/main.ts', 'activities/index.ts'];
  const moduleImports = entryPoints.flatMap((file) => {
    const graph = importGraph([path.join(ROOT, file)]);
    return (graph.get(path.join(ROOT, file)) ?? [])
      .map((target) => path.relative(ROOT, target))
      .filter((target) => target.startsWith('src/modules/') && target !== 'src/modules/registry.ts')
      .map((target) => `${file} imports ${target}`);
  });
  expect(moduleImports).toEqual([]);
});

it('every WebSocket endpoint is built on the one socket foundation', () => {
  const servers = sourceFiles(path.join(ROOT, 'src'))
    .filter((file) => /new WebSocketServer\(/.test(readFileSync(file, 'utf8')))
    .map((file) => path.relative(ROOT, file));
  expect(servers).toEqual(['src/platform/realtime/socket-endpoint.ts']);
});
