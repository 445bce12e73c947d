/**
 * A CommonJS package loaded on its first use rather than at start-up: the reports' chart, workbook and PDF libraries
 * weigh ~1.5 s and 62 MB that the API, the worker and every test file would otherwise pay. Node's `import()` and
 * Jest's transform alike give its `module.exports` as `default`.
 */
export async function loadPackage<T>(load: () => Promise<T>): Promise<T extends { default: infer E } ? E : T> {
  const loaded = await load();
  return ((loaded as { default?: unknown }).default ?? loaded) as T extends { default: infer E } ? E : T;
}
