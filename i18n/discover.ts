/**
 * One bundle from the message files found by `import.meta.glob` (path → its exports): each file default-exports
 * its part (a section's `resources.<resource>` entries, a server module's keys), and two files may not give the
 * same key. Files merge in path order, so the result does not depend on how the glob lists them.
 */
export function mergeMessages<T extends Record<string, unknown>>(found: Record<string, { default: T }>): T {
  const out: Record<string, unknown> = {};
  const from = new Map<string, string>();
  for (const path of Object.keys(found).sort()) {
    for (const [key, value] of Object.entries(found[path].default)) {
      const other = from.get(key);
      if (other) throw new Error(`The message key "${key}" is in ${other} and ${path}`);
      from.set(key, path);
      out[key] = value;
    }
  }
  return out as T;
}
