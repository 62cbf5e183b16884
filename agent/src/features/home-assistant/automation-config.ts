import type * as Yaml from 'yaml';
import type { Document } from 'yaml';
import { lazyRequire } from '../../lib/lazy-require.js';
import {
  automationConfigSchema,
  type AutomationConfig,
  type AutomationInput,
} from '../../contract/ha-automations.js';
import { badRequest, type HttpError } from '../../lib/http-error.js';

/** yaml loads with the first automation edited in YAML, not at start. */
const yaml = lazyRequire<typeof Yaml>('yaml');

/**
 * The keys HA's automation schema knows (homeassistant/components/automation/config.py, with the
 * script-mode keys). HA refuses any other key with "extra keys not allowed", after the editor has
 * already sent it; checking here lets the console name the line instead.
 */
const KNOWN_KEYS = new Set([
  'id',
  'alias',
  'description',
  'mode',
  'max',
  'max_exceeded',
  'initial_state',
  'trace',
  'variables',
  'trigger_variables',
  'triggers',
  'trigger',
  'conditions',
  'condition',
  'actions',
  'action',
  'use_blueprint',
]);

/** Where in the YAML a problem is (1-based), for the editor to point at. */
export interface YamlProblem {
  line: number | null;
  column: number | null;
  key: string | null;
}

function invalid(message: string, where: YamlProblem): HttpError {
  const prefix = where.line !== null ? `Line ${where.line}: ` : '';
  return badRequest(`${prefix}${message}`, where);
}

function nonEmpty(value: unknown): boolean {
  if (Array.isArray(value)) return value.length > 0;
  return value !== null && typeof value === 'object';
}

/**
 * Checks a config as HA's automation schema would, before anything is sent to HA. `locate` finds a
 * top-level key's line in the YAML it came from (none for a JSON config).
 */
export function checkAutomationConfig(
  raw: unknown,
  locate: (key: string | null) => YamlProblem = (key) => ({ line: null, column: null, key }),
): AutomationConfig {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    throw invalid(
      'An automation is a mapping with alias, triggers and actions (a list or a single value was sent)',
      locate(null),
    );
  }
  const config = raw as Record<string, unknown>;
  const extra = Object.keys(config).find((key) => !KNOWN_KEYS.has(key));
  if (extra !== undefined) {
    throw invalid(
      `"${extra}" is not an automation option; Home Assistant refuses extra keys (known: alias, description, mode, triggers, conditions, actions, variables…)`,
      locate(extra),
    );
  }
  const parsed = automationConfigSchema.safeParse(config);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = typeof issue.path[0] === 'string' ? issue.path[0] : null;
    throw invalid(`${key ?? 'config'}: ${issue.message}`, locate(key));
  }
  // A blueprint automation takes its triggers and actions from the blueprint.
  if (config.use_blueprint === undefined) {
    for (const [modern, legacy, what] of [
      ['triggers', 'trigger', 'trigger'],
      ['actions', 'action', 'action'],
    ] as const) {
      if (config[modern] !== undefined && config[legacy] !== undefined) {
        throw invalid(`Use either "${modern}" or "${legacy}", not both`, locate(legacy));
      }
      const value = config[modern] ?? config[legacy];
      if (value === undefined) {
        throw invalid(`An automation needs at least one ${what}: add "${modern}:" with a list`, locate(null));
      }
      if (!nonEmpty(value)) {
        throw invalid(
          `"${config[modern] !== undefined ? modern : legacy}" must be a list of ${what}s (or one ${what} as a mapping)`,
          locate(config[modern] !== undefined ? modern : legacy),
        );
      }
    }
  }
  return parsed.data;
}

/** Parses the editor's YAML into a config; every error names its line. */
export function parseAutomationYaml(text: string): AutomationConfig {
  const { isMap, isScalar, LineCounter, parseDocument } = yaml();
  const lines = new LineCounter();
  const doc: Document = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) {
    const at = lines.linePos(error.pos[0]);
    // yaml's messages end with the offending excerpt; the first line is the reason.
    const reason = error.message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
    throw invalid(`the YAML is not valid: ${reason}`, { line: at.line, column: at.col, key: null });
  }
  const locate = (key: string | null): YamlProblem => {
    const contents = doc.contents;
    if (key !== null && isMap(contents)) {
      const pair = contents.items.find((p) => isScalar(p.key) && p.key.value === key);
      const range = pair && isScalar(pair.key) ? pair.key.range : undefined;
      if (range) {
        const at = lines.linePos(range[0]);
        return { line: at.line, column: at.col, key };
      }
    }
    const start = contents?.range?.[0] ?? 0;
    const at = lines.linePos(start);
    return { line: at.line, column: at.col, key };
  };
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw invalid(`the YAML is not valid: ${(err as Error).message}`, locate(null));
  }
  return checkAutomationConfig(value, locate);
}

/** The config from either form of the API's input, checked, with HA's config id set. */
export function configFromInput(input: AutomationInput, id: string): Record<string, unknown> {
  const config = 'yaml' in input ? parseAutomationYaml(input.yaml) : checkAutomationConfig(input.config);
  // HA's config API keeps the id inside the config as well; the URL's id wins, as in HA's editor.
  const { id: _theirs, ...rest } = config;
  return { id, ...rest };
}

/**
 * The config as YAML for the editor (HA's key order: id, alias, description first). Written as
 * YAML 1.1, the version Home Assistant reads: there `on`, `off`, `yes` and `07:05:00` unquoted are a
 * boolean and a base-60 number, so 1.1 output quotes them and the text means the same in HA.
 */
export function configToYaml(config: Record<string, unknown>): string {
  return yaml().stringify(config, { lineWidth: 0, version: '1.1' });
}

/**
 * A new config id as HA's automation editor makes one: the current time in milliseconds
 * (frontend: `String(Date.now())`), unique against the ids already in use.
 */
export function newAutomationId(now: number, taken: (id: string) => boolean): string {
  let at = now;
  while (taken(String(at))) at++;
  return String(at);
}
