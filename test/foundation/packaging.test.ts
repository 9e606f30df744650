import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** Every .ts file under a folder. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? sources(join(dir, entry.name)) : entry.name.endsWith('.ts') ? [join(dir, entry.name)] : [],
  );
}

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`). */
const packageOf = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/');

describe('packaging', () => {
  it('lists every package the server imports at run time in dependencies, so a production install (npm ci --omit=dev) runs', () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8'));
    const runtime = new Set(Object.keys(pkg.dependencies));
    const used = new Set<string>();
    for (const file of sources('src')) {
      const text = readFileSync(file, 'utf8');
      // Type-only imports vanish from the build; everything else is loaded when the server runs.
      for (const match of text.matchAll(/^import (?!type )[^;]*?from '([^'.][^']*)'/gm)) used.add(packageOf(match[1] ?? ''));
      for (const match of text.matchAll(/require\('([^'.][^']*)'\)/g)) used.add(packageOf(match[1] ?? ''));
    }
    const missing = [...used].filter((name) => !name.startsWith('node:') && !runtime.has(name));
    expect(missing).toEqual([]);
  });
});
