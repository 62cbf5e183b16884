import { useQuery } from '@tanstack/react-query';
import { Plus, Trash2 } from 'lucide-react';
import {
  CONDITION_OPERATOR_LABELS,
  CONDITION_OPERATORS,
  HTTP_METHODS,
  stageConfigSchemas,
  type HttpHeader,
  type StageKind,
} from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Switch } from '@/components/ui/switch';
import { Textarea } from '@/components/ui/textarea';
import { haEntitiesQueryOptions } from '@/data/home-assistant';

export type Config = Record<string, unknown>;

interface Field {
  key: string;
  label: string;
  type: 'text' | 'textarea' | 'number' | 'select' | 'switch';
  hint?: string;
  options?: readonly { value: string; label: string }[];
}

const FIELDS: Record<StageKind, Field[]> = {
  vad: [{ key: 'minSpeechMs', label: 'Least speech to accept (ms)', type: 'number' }],
  stt: [
    {
      key: 'engine',
      label: 'Engine',
      type: 'text',
      hint: 'Leave empty for the default speech-to-text service',
    },
    { key: 'language', label: 'Language', type: 'text', hint: 'e.g. en' },
  ],
  llm: [
    {
      key: 'prompt',
      label: 'Prompt',
      type: 'textarea',
      hint: 'Use {{trigger.text}} or {{stages.<id>.text}}',
    },
    { key: 'system', label: 'System prompt', type: 'textarea' },
    { key: 'model', label: 'Model', type: 'text', hint: 'Leave empty to let the router choose' },
    {
      key: 'task',
      label: 'Router rule',
      type: 'select',
      options: [
        { value: 'pipeline', label: 'pipeline' },
        { value: 'summarise', label: 'summarise' },
      ],
    },
  ],
  ha_call: [
    { key: 'domain', label: 'Domain', type: 'text', hint: 'e.g. light' },
    { key: 'service', label: 'Service', type: 'text', hint: 'e.g. turn_on' },
    { key: 'entityId', label: 'Entity', type: 'text', hint: 'e.g. light.kitchen or {{stages.intent.text}}' },
    { key: 'data', label: 'Service data (JSON)', type: 'textarea', hint: 'e.g. {"brightness_pct": 60}' },
  ],
  http_request: [
    {
      key: 'method',
      label: 'Method',
      type: 'select',
      options: HTTP_METHODS.map((m) => ({ value: m, label: m })),
    },
    { key: 'url', label: 'URL', type: 'text' },
    { key: 'body', label: 'Body', type: 'textarea' },
    { key: 'timeoutMs', label: 'Timeout (ms)', type: 'number' },
  ],
  notify: [
    { key: 'title', label: 'Title', type: 'text' },
    { key: 'body', label: 'Body', type: 'textarea' },
    {
      key: 'level',
      label: 'Level',
      type: 'select',
      options: ['info', 'success', 'warning', 'error'].map((l) => ({ value: l, label: l })),
    },
  ],
  tts: [
    { key: 'text', label: 'Text to speak', type: 'textarea' },
    { key: 'voice', label: 'Voice', type: 'text', hint: 'Leave empty for the default voice' },
  ],
  condition: [
    { key: 'value', label: 'Value', type: 'text', hint: 'e.g. {{stages.stt.text}}' },
    {
      key: 'operator',
      label: 'Operator',
      type: 'select',
      options: CONDITION_OPERATORS.map((o) => ({ value: o, label: CONDITION_OPERATOR_LABELS[o] })),
    },
    { key: 'compareTo', label: 'Compare with', type: 'text' },
    { key: 'ignoreCase', label: 'Ignore case', type: 'switch' },
  ],
};

/** The errors the contract's schema finds in a stage's config, by field. */
export function configErrors(kind: StageKind, config: Config): Record<string, string> {
  const result = stageConfigSchemas[kind].safeParse(config);
  if (result.success) return {};
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) {
    const key = issue.path.map(String).join('.') || '_';
    errors[key] ??= issue.message;
  }
  return errors;
}

const selectClass =
  'h-9 w-full rounded-md border border-input bg-background px-3 text-sm shadow-sm focus-visible:ring-2 focus-visible:ring-ring focus-visible:outline-none';

export function StageConfigForm({
  stageKey,
  kind,
  config,
  onChange,
  laterStages,
}: {
  stageKey: string;
  kind: StageKind;
  config: Config;
  onChange: (config: Config) => void;
  /** Stages a condition may jump to. */
  laterStages: { id: string; name: string }[];
}) {
  const errors = configErrors(kind, config);
  const set = (key: string, value: unknown) => onChange({ ...config, [key]: value });
  // Entity ids to suggest for a service call: those of the chosen domain (HA may be unreachable: then none).
  const entities = useQuery({ ...haEntitiesQueryOptions(), enabled: kind === 'ha_call' });
  const domain = typeof config.domain === 'string' ? config.domain : '';
  const suggestions = (entities.data?.entities ?? [])
    .filter((e) => !domain || e.domain === domain)
    .slice(0, 200);

  return (
    <div className="grid gap-3 md:grid-cols-2">
      {FIELDS[kind].map((field) => {
        const id = `${stageKey}-${field.key}`;
        const error = errors[field.key];
        const value = config[field.key];
        const described = [field.hint ? `${id}-hint` : '', error ? `${id}-error` : '']
          .filter(Boolean)
          .join(' ');
        const common = {
          id,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': described || undefined,
        };
        return (
          <div
            key={field.key}
            className={
              field.type === 'textarea'
                ? 'grid content-start gap-1 md:col-span-2'
                : 'grid content-start gap-1'
            }
          >
            {field.type === 'switch' ? (
              <div className="flex items-center gap-2 pt-6">
                <Switch {...common} checked={value !== false} onCheckedChange={(on) => set(field.key, on)} />
                <Label htmlFor={id}>{field.label}</Label>
              </div>
            ) : (
              <>
                <Label htmlFor={id}>{field.label}</Label>
                {field.type === 'textarea' ? (
                  <Textarea
                    {...common}
                    rows={3}
                    value={typeof value === 'string' ? value : ''}
                    onChange={(e) =>
                      set(
                        field.key,
                        e.target.value === '' && field.key !== 'prompt' ? undefined : e.target.value,
                      )
                    }
                  />
                ) : field.type === 'select' ? (
                  <select
                    {...common}
                    className={selectClass}
                    value={typeof value === 'string' ? value : (field.options?.[0]?.value ?? '')}
                    onChange={(e) => set(field.key, e.target.value)}
                  >
                    {field.options?.map((o) => (
                      <option key={o.value} value={o.value}>
                        {o.label}
                      </option>
                    ))}
                  </select>
                ) : field.type === 'number' ? (
                  <Input
                    {...common}
                    type="number"
                    value={typeof value === 'number' ? value : ''}
                    onChange={(e) =>
                      set(field.key, e.target.value === '' ? undefined : Number(e.target.value))
                    }
                  />
                ) : (
                  <Input
                    {...common}
                    list={kind === 'ha_call' && field.key === 'entityId' ? `${stageKey}-entities` : undefined}
                    value={typeof value === 'string' ? value : ''}
                    onChange={(e) => set(field.key, e.target.value)}
                  />
                )}
              </>
            )}
            {field.hint ? (
              <p id={`${id}-hint`} className="text-xs text-muted-foreground">
                {field.hint}
              </p>
            ) : null}
            {error ? (
              <p id={`${id}-error`} className="text-xs text-destructive">
                {error}
              </p>
            ) : null}
          </div>
        );
      })}
      {kind === 'ha_call' ? (
        <datalist id={`${stageKey}-entities`}>
          {suggestions.map((e) => (
            <option key={e.entity_id} value={e.entity_id}>
              {e.name}
            </option>
          ))}
        </datalist>
      ) : null}
      {kind === 'http_request' ? (
        <HeadersEditor
          stageKey={stageKey}
          headers={(config.headers as HttpHeader[] | undefined) ?? []}
          onChange={(headers) => set('headers', headers)}
          errors={errors}
        />
      ) : null}
      {kind === 'condition' ? (
        <OtherwiseEditor
          stageKey={stageKey}
          value={
            (config.otherwise as { action: 'stop' } | { action: 'goto'; stageId: string } | undefined) ?? {
              action: 'stop',
            }
          }
          laterStages={laterStages}
          onChange={(otherwise) => set('otherwise', otherwise)}
        />
      ) : null}
    </div>
  );
}

function HeadersEditor({
  stageKey,
  headers,
  onChange,
  errors,
}: {
  stageKey: string;
  headers: HttpHeader[];
  onChange: (headers: HttpHeader[]) => void;
  errors: Record<string, string>;
}) {
  const update = (i: number, changes: Partial<HttpHeader>) =>
    onChange(headers.map((h, j) => (j === i ? { ...h, ...changes } : h)));
  return (
    <fieldset className="grid gap-2 md:col-span-2">
      <legend className="text-sm font-medium">Headers</legend>
      {headers.length === 0 ? <p className="text-xs text-muted-foreground">No headers.</p> : null}
      {headers.map((header, i) => {
        const id = `${stageKey}-header-${i}`;
        const error = errors[`headers.${i}.name`];
        return (
          <div key={i} className="grid grid-cols-[1fr_1fr_auto_auto] items-center gap-2">
            <Input
              aria-label={`Header ${i + 1} name`}
              id={`${id}-name`}
              value={header.name}
              aria-invalid={error ? true : undefined}
              onChange={(e) => update(i, { name: e.target.value })}
            />
            <Input
              aria-label={`Header ${i + 1} value`}
              type={header.secret ? 'password' : 'text'}
              autoComplete="off"
              placeholder={header.secret && header.hasValue ? 'Stored (leave empty to keep)' : ''}
              value={header.value ?? ''}
              onChange={(e) => update(i, { value: e.target.value })}
            />
            <label className="flex items-center gap-1 text-xs">
              <Switch
                aria-label={`Header ${i + 1} is secret`}
                checked={header.secret ?? false}
                onCheckedChange={(on) => update(i, { secret: on })}
              />
              Secret
            </label>
            <Button
              variant="ghost"
              size="icon"
              aria-label={`Remove header ${i + 1}`}
              onClick={() => onChange(headers.filter((_, j) => j !== i))}
            >
              <Trash2 aria-hidden="true" />
            </Button>
            {error ? <p className="col-span-4 text-xs text-destructive">{error}</p> : null}
          </div>
        );
      })}
      <Button
        variant="outline"
        size="sm"
        className="justify-self-start"
        onClick={() => onChange([...headers, { name: '', value: '', secret: false }])}
      >
        <Plus aria-hidden="true" /> Add header
      </Button>
      <p className="text-xs text-muted-foreground">
        Secret values are encrypted on the hub, never shown again and never exported.
      </p>
    </fieldset>
  );
}

function OtherwiseEditor({
  stageKey,
  value,
  laterStages,
  onChange,
}: {
  stageKey: string;
  value: { action: 'stop' } | { action: 'goto'; stageId: string };
  laterStages: { id: string; name: string }[];
  onChange: (value: { action: 'stop' } | { action: 'goto'; stageId: string }) => void;
}) {
  const id = `${stageKey}-otherwise`;
  const current = value.action === 'stop' ? 'stop' : `goto:${value.stageId}`;
  return (
    <div className="grid gap-1 md:col-span-2">
      <Label htmlFor={id}>When the condition does not hold</Label>
      <select
        id={id}
        className={selectClass}
        value={current}
        onChange={(e) =>
          onChange(
            e.target.value === 'stop'
              ? { action: 'stop' }
              : { action: 'goto', stageId: e.target.value.slice(5) },
          )
        }
      >
        <option value="stop">Stop the run here</option>
        {laterStages.map((s) => (
          <option key={s.id} value={`goto:${s.id}`}>
            Jump to “{s.name}”
          </option>
        ))}
      </select>
    </div>
  );
}
