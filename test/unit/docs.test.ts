import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { configVariables } from '../../src/config';
import { MODULES } from '../../src/modules/registry';

/**
 * The documents stay true to the code: the README's Scope table lists exactly the registry's modules, the map
 * (docs/architecture.md) names every module folder and workflow and no path that does not exist, and every local
 * link of the README and docs/ resolves (every decisions file linked from the README). Each check is a function
 * of the text, so the tests below also prove it fails a planted defect.
 */

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const README = 'README.md';
const ARCHITECTURE = 'docs/architecture.md';
const OPERATIONS = 'docs/operations.md';

function markdownFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((entry) => {
    const relative = path.posix.join(dir, entry);
    if (statSync(path.join(ROOT, relative)).isDirectory()) return markdownFiles(relative);
    return relative.endsWith('.md') ? [relative] : [];
  });
}

const DOCUMENTS = [README, ...markdownFiles('docs')];
const DECISIONS = markdownFiles('docs/decisions');
const moduleNames = MODULES.map((module) => module.name as string);
const moduleFolders = readdirSync(path.join(ROOT, 'src/modules')).filter((entry) =>
  statSync(path.join(ROOT, 'src/modules', entry)).isDirectory(),
);
const workflowFiles = readdirSync(path.join(ROOT, 'workflows'))
  .filter((entry) => entry.endsWith('.ts') && entry !== 'index.ts')
  .map((entry) => `workflows/${entry}`);

/** The text of one `## ` section of a markdown document, without its heading. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`\n## ${heading}\n`);
  if (start < 0) return '';
  const rest = text.slice(start + heading.length + 5);
  const end = rest.search(/\n## /);
  return end < 0 ? rest : rest.slice(0, end);
}

/** The Scope table's modules: the rows whose first cell is a module name in backticks. */
function scopeModules(readme: string): string[] {
  return [...section(readme, 'Scope').matchAll(/^\| `([^`]+)` +\|/gm)].map((match) => match[1]);
}

function scopeProblems(readme: string, names: readonly string[]): string[] {
  const listed = scopeModules(readme);
  return [
    ...names.filter((name) => !listed.includes(name)).map((name) => `module ${name} is not in the Scope table`),
    ...listed.filter((name) => !names.includes(name)).map((name) => `the Scope table lists ${name}, no module`),
    ...listed.filter((name, index) => listed.indexOf(name) !== index).map((name) => `${name} is listed twice`),
  ];
}

/** Paths into the repository a document names (placeholders such as `<area>` left out), as written. */
function repositoryPaths(text: string): string[] {
  const pattern = /(?<![\w./-])(?:src|workflows|activities|workers|migrations|scripts|test|docs)\/[\w./<>*{}-]*/g;
  return [...new Set([...text.matchAll(pattern)].map((match) => match[0].replace(/[.,]+$/, '')))].filter(
    (name) => !/[<>*{}]/.test(name) && !name.includes('...'),
  );
}

function architectureProblems(text: string, folders: readonly string[], workflows: readonly string[]): string[] {
  const named = repositoryPaths(text);
  return [
    ...folders
      .filter((folder) => !text.includes(`\`src/modules/${folder}/\``))
      .map((folder) => `module folder src/modules/${folder} is not named`),
    ...workflows.filter((file) => !text.includes(`\`${file}\``)).map((file) => `workflow file ${file} is not named`),
    ...named.filter((name) => !existsSync(path.join(ROOT, name))).map((name) => `${name} does not exist`),
  ];
}

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Every local link of a document that leads nowhere: a missing file, or a heading the file does not have. */
function brokenLinks(file: string, text: string, readFile: (file: string) => string | undefined): string[] {
  const links = [...text.matchAll(/\]\(([^)\s]+)\)/g)].map((match) => match[1]);
  return links
    .filter((link) => !/^[a-z]+:/.test(link))
    .filter((link) => {
      const [target, fragment] = link.split('#');
      const resolved = target ? path.posix.join(path.posix.dirname(file), target) : file;
      const content = readFile(resolved);
      if (content === undefined) return true;
      if (!fragment) return false;
      const headings = [...content.matchAll(/^#+ (.+)$/gm)].map((match) => anchor(match[1]));
      return !headings.includes(fragment);
    })
    .map((link) => `${file}: ${link}`);
}

/** The variables the first column of the environment reference (docs/operations.md, Configuration) names. */
function documentedVariables(text: string): string[] {
  return section(text, 'Configuration')
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .flatMap((row) => [...row.split('|')[1].matchAll(/`([A-Z0-9_]+)`/g)].map((match) => match[1]));
}

const undocumented = (text: string, variables: readonly string[]) =>
  variables.filter((name) => !documentedVariables(text).includes(name));

const readIfExists = (file: string) => (existsSync(path.join(ROOT, file)) ? read(file) : undefined);

describe('the README', () => {
  it("lists exactly the registry's modules in its Scope table, each once", () => {
    expect(scopeModules(read(README)).length).toBe(moduleNames.length);
    expect(scopeProblems(read(README), moduleNames)).toEqual([]);
  });

  it('fails a Scope table with a renamed, a missing or an extra module', () => {
    const readme = read(README);
    expect(scopeProblems(readme.replace('| `chat` ', '| `chats`'), moduleNames)).toEqual([
      'module chat is not in the Scope table',
      'the Scope table lists chats, no module',
    ]);
    expect(scopeProblems(readme, [...moduleNames, 'spa'])).toEqual(['module spa is not in the Scope table']);
    expect(
      scopeProblems(
        readme,
        moduleNames.filter((name) => name !== 'tv'),
      ),
    ).toEqual(['the Scope table lists tv, no module']);
  });

  it('links every decisions file', () => {
    expect(DECISIONS.length).toBeGreaterThan(0);
    const readme = read(README);
    expect(DECISIONS.filter((file) => !readme.includes(`](${file})`))).toEqual([]);
  });

  it('stays short: at most about 300 lines', () => {
    expect(read(README).split('\n').length).toBeLessThanOrEqual(300);
  });
});

describe('docs/architecture.md, the map', () => {
  it('names every module folder and workflow file, and no path that does not exist', () => {
    expect(moduleFolders.length).toBe(moduleNames.length);
    expect(architectureProblems(read(ARCHITECTURE), moduleFolders, workflowFiles)).toEqual([]);
  });

  it('fails a renamed module, a module left out and a workflow left out', () => {
    const text = read(ARCHITECTURE);
    expect(architectureProblems(text.replaceAll('src/modules/chat/', 'src/modules/chats/'), moduleFolders, [])).toEqual(
      ['module folder src/modules/chat is not named', 'src/modules/chats/ does not exist'],
    );
    expect(architectureProblems(text, [...moduleFolders, 'spa'], [])).toEqual([
      'module folder src/modules/spa is not named',
    ]);
    expect(architectureProblems(text, [], ['workflows/spa.workflow.ts'])).toEqual([
      'workflow file workflows/spa.workflow.ts is not named',
    ]);
  });
});

describe('docs/operations.md, the environment reference', () => {
  it("names every variable the configuration reads, the platform's and every module section's", () => {
    expect(configVariables()).toEqual(expect.arrayContaining(['DATABASE_URL', 'WIDGET_READS_PER_MINUTE']));
    expect(undocumented(read(OPERATIONS), configVariables())).toEqual([]);
  });

  it('fails a variable left out', () => {
    const text = read(OPERATIONS).replace('| `WIDGET_LOOKUPS_PER_15_MINUTES`', '| `WIDGET_LOOKUPS`');
    expect(undocumented(text, configVariables())).toEqual(['WIDGET_LOOKUPS_PER_15_MINUTES']);
  });
});

describe('links of the README and docs/', () => {
  it('every local link resolves, to its heading too', () => {
    expect(DOCUMENTS.flatMap((file) => brokenLinks(file, read(file), readIfExists))).toEqual([]);
  });

  it('fails a link to a missing file or heading', () => {
    const text = '[a](docs/decisions/spa.md) [b](docs/operations.md#spa) [c](docs/operations.md#keys-rotation)';
    expect(brokenLinks(README, text, readIfExists)).toEqual([
      'README.md: docs/decisions/spa.md',
      'README.md: docs/operations.md#spa',
    ]);
  });
});
