/**
 * `{{path.to.value}}` placeholders over a run's context ({ trigger, stages, run }). A missing value
 * renders as an empty string; objects render as JSON so a prompt can include a whole payload.
 */
const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_$.[\]-]+)\s*\}\}/g;

export function lookup(context: unknown, path: string): unknown {
  let current: unknown = context;
  for (const part of path.replace(/\[(\d+)\]/g, '.$1').split('.')) {
    if (part === '') continue;
    if (current === null || current === undefined || typeof current !== 'object') return undefined;
    // Own properties only: a template must not reach Object.prototype.
    if (!Object.prototype.hasOwnProperty.call(current, part)) return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

export function stringify(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

export function renderTemplate(template: string, context: unknown): string {
  return template.replace(PLACEHOLDER, (_, path: string) => stringify(lookup(context, path)));
}

/** Renders placeholders inside a JSON text with each value JSON-escaped, so the result stays valid JSON. */
export function renderJsonTemplate(template: string, context: unknown): string {
  return template.replace(PLACEHOLDER, (_, path: string) =>
    JSON.stringify(stringify(lookup(context, path))).slice(1, -1),
  );
}
