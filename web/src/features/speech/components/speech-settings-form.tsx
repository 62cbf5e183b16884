import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { AudioLines, Ear, Radar, Save } from 'lucide-react';
import {
  STT_ENGINE_LABELS,
  WYOMING_PROGRAM_KIND_LABELS,
  speechSettingsInputSchema,
  type SpeechProbeResult,
  type SpeechSettings,
  type SttEngine,
} from '@nexus/agent/contract';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Spinner } from '@/components/ui/spinner';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useProbeSpeechService, useSaveSpeechSettings } from '@/data/speech';
import { ErrorText, SpeechSection } from './speech-section';

const NONE = 'none';

interface FormState {
  sttEngine: SttEngine | typeof NONE;
  wyomingHost: string;
  wyomingPort: string;
  model: string;
  language: string;
  openaiBaseUrl: string;
  apiKey: string;
  removeKey: boolean;
  ttsEngine: 'wyoming' | typeof NONE;
  ttsHost: string;
  ttsPort: string;
  voice: string;
}

function fromSettings(s: SpeechSettings): FormState {
  return {
    sttEngine: s.stt.engine ?? NONE,
    wyomingHost: s.stt.wyomingHost ?? '',
    wyomingPort: String(s.stt.wyomingPort),
    model: s.stt.model ?? '',
    language: s.stt.language ?? '',
    openaiBaseUrl: s.stt.openaiBaseUrl ?? '',
    apiKey: '',
    removeKey: false,
    ttsEngine: s.tts.engine ?? NONE,
    ttsHost: s.tts.host ?? '',
    ttsPort: String(s.tts.port),
    voice: s.tts.voice ?? '',
  };
}

/** The same zod schema the agent validates with; the first issue per field is shown beside it. */
function validateForm(form: FormState) {
  const input = {
    stt: {
      engine: form.sttEngine === NONE ? null : form.sttEngine,
      wyomingHost: form.wyomingHost.trim() || null,
      wyomingPort: form.wyomingPort,
      model: form.model,
      language: form.language,
      openaiBaseUrl: form.openaiBaseUrl.trim() || null,
      ...(form.removeKey ? { apiKey: null } : form.apiKey.trim() ? { apiKey: form.apiKey } : {}),
    },
    tts: {
      engine: form.ttsEngine === NONE ? null : form.ttsEngine,
      host: form.ttsHost.trim() || null,
      port: form.ttsPort,
      voice: form.voice,
    },
  };
  const parsed = speechSettingsInputSchema.safeParse(input);
  const errors: Record<string, string> = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const key = issue.path.join('.');
      errors[key] ??= issue.message;
    }
  }
  return { input, errors, ok: parsed.success };
}

/** STT and TTS settings (admins edit, everyone else reads), with a probe of each Wyoming service. */
export function SpeechSettingsForm({ settings, canEdit }: { settings: SpeechSettings; canEdit: boolean }) {
  const [form, setForm] = useState<FormState>(() => fromSettings(settings));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const save = useSaveSpeechSettings();
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) =>
    setForm((f) => ({ ...f, [key]: value }));
  const readOnly = !canEdit;

  function submit(e: FormEvent) {
    e.preventDefault();
    const checked = validateForm(form);
    setErrors(checked.errors);
    if (!checked.ok) return;
    save.mutate(checked.input, {
      onSuccess: (saved) => {
        toast({ title: 'Speech services saved' });
        setForm(fromSettings(saved));
      },
      onError: (error) =>
        toast({ title: 'Could not save', description: errorMessage(error), variant: 'destructive' }),
    });
  }

  return (
    <form onSubmit={submit} className="grid gap-4" aria-label="Speech services" noValidate>
      <div className="grid gap-4 lg:grid-cols-2">
        <SpeechSection
          title="Speech to text"
          icon={Ear}
          description="Transcribes voice clips for the flows' speech-to-text stages: a Wyoming faster-whisper service or an OpenAI-compatible transcription API."
        >
          <Field label="Engine" id="stt-engine">
            <Select
              value={form.sttEngine}
              onValueChange={(v) => set('sttEngine', v as FormState['sttEngine'])}
              disabled={readOnly}
            >
              <SelectTrigger id="stt-engine" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={NONE}>Not set up</SelectItem>
                <SelectItem value="wyoming">{STT_ENGINE_LABELS.wyoming}</SelectItem>
                <SelectItem value="openai">{STT_ENGINE_LABELS.openai}</SelectItem>
              </SelectContent>
            </Select>
          </Field>
          {form.sttEngine === 'wyoming' ? (
            <>
              <HostPort
                prefix="stt"
                host={form.wyomingHost}
                port={form.wyomingPort}
                onHost={(v) => set('wyomingHost', v)}
                onPort={(v) => set('wyomingPort', v)}
                hostError={errors['stt.wyomingHost']}
                portError={errors['stt.wyomingPort']}
                readOnly={readOnly}
                placeholder="faster-whisper"
              />
              {canEdit ? (
                <Probe
                  host={form.wyomingHost}
                  port={form.wyomingPort}
                  onPick={(name) => set('model', name)}
                />
              ) : null}
            </>
          ) : null}
          {form.sttEngine === 'openai' ? (
            <>
              <Field label="API base URL" id="stt-base-url" error={errors['stt.openaiBaseUrl']}>
                <Input
                  id="stt-base-url"
                  value={form.openaiBaseUrl}
                  onChange={(e) => set('openaiBaseUrl', e.target.value)}
                  placeholder="https://api.openai.com/v1"
                  readOnly={readOnly}
                  aria-invalid={errors['stt.openaiBaseUrl'] ? true : undefined}
                />
              </Field>
              {canEdit ? (
                <Field
                  label="API key"
                  id="stt-api-key"
                  error={errors['stt.apiKey']}
                  hint={
                    settings.stt.hasApiKey
                      ? 'A key is stored (never shown). Leave empty to keep it; a new address needs the key again.'
                      : 'Stored encrypted on the hub and never shown again.'
                  }
                >
                  <Input
                    id="stt-api-key"
                    type="password"
                    autoComplete="off"
                    value={form.apiKey}
                    onChange={(e) => set('apiKey', e.target.value)}
                    placeholder={settings.stt.hasApiKey ? '••••••••' : 'sk-…'}
                    disabled={form.removeKey}
                  />
                </Field>
              ) : null}
              {canEdit && settings.stt.hasApiKey ? (
                <label className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    className="size-4 accent-primary"
                    checked={form.removeKey}
                    onChange={(e) => set('removeKey', e.target.checked)}
                  />
                  Remove the stored key
                </label>
              ) : null}
            </>
          ) : null}
          {form.sttEngine !== NONE ? (
            <div className="grid gap-4 sm:grid-cols-2">
              <Field
                label="Model"
                id="stt-model"
                error={errors['stt.model']}
                hint={form.sttEngine === 'openai' ? 'Empty: whisper-1' : 'Empty: the service’s own'}
              >
                <Input
                  id="stt-model"
                  value={form.model}
                  onChange={(e) => set('model', e.target.value)}
                  readOnly={readOnly}
                />
              </Field>
              <Field
                label="Language"
                id="stt-language"
                error={errors['stt.language']}
                hint="e.g. en; empty: detect"
              >
                <Input
                  id="stt-language"
                  value={form.language}
                  onChange={(e) => set('language', e.target.value)}
                  readOnly={readOnly}
                  aria-invalid={errors['stt.language'] ? true : undefined}
                />
              </Field>
            </div>
          ) : (
            <p className="text-sm text-muted-foreground">
              Voice flows stop at their speech-to-text stage until an engine is set up here.
            </p>
          )}
        </SpeechSection>

        <SpeechSection
          title="Text to speech"
          icon={AudioLines}
          description="Speaks the flows' answers: a Wyoming Piper service."
        >
          <Field label="Engine" id="tts-engine">
            <Select
              value={form.ttsEngine}
              onValueChange={(v) => set('ttsEngine', v as FormState['ttsEngine'])}
              disabled={readOnly}
            >
              <SelectTrigger id="tts-engine" className="w-full">
                <SelectValue />
              </SelectTrigger>
              <SelectContent>
                <SelectItem value={NONE}>Not set up</SelectItem>
                <SelectItem value="wyoming">Wyoming (Piper)</SelectItem>
              </SelectContent>
            </Select>
          </Field>
          {form.ttsEngine === 'wyoming' ? (
            <>
              <HostPort
                prefix="tts"
                host={form.ttsHost}
                port={form.ttsPort}
                onHost={(v) => set('ttsHost', v)}
                onPort={(v) => set('ttsPort', v)}
                hostError={errors['tts.host']}
                portError={errors['tts.port']}
                readOnly={readOnly}
                placeholder="piper"
              />
              <Field
                label="Voice"
                id="tts-voice"
                error={errors['tts.voice']}
                hint="Empty: the service’s default"
              >
                <Input
                  id="tts-voice"
                  value={form.voice}
                  onChange={(e) => set('voice', e.target.value)}
                  placeholder="en_US-lessac-medium"
                  readOnly={readOnly}
                />
              </Field>
              {canEdit ? (
                <Probe host={form.ttsHost} port={form.ttsPort} onPick={(name) => set('voice', name)} />
              ) : null}
            </>
          ) : (
            <p className="text-sm text-muted-foreground">
              Text-to-speech stages fail until a Wyoming Piper service is set up here.
            </p>
          )}
        </SpeechSection>
      </div>
      {canEdit ? (
        <div className="flex items-center justify-end gap-3">
          {settings.updatedAt ? (
            <span className="text-xs text-muted-foreground">
              Saved {new Date(settings.updatedAt).toLocaleString()}
            </span>
          ) : null}
          <Button type="submit" disabled={save.isPending}>
            {save.isPending ? <Spinner label="Saving" /> : <Save aria-hidden="true" />}
            Save speech services
          </Button>
        </div>
      ) : (
        <p className="text-sm text-muted-foreground">Only administrators can change the speech services.</p>
      )}
    </form>
  );
}

function Field({
  label,
  id,
  error,
  hint,
  children,
}: {
  label: string;
  id: string;
  error?: string;
  hint?: string;
  children: ReactNode;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {error ? (
        <p className="text-xs text-destructive" role="alert">
          {error}
        </p>
      ) : hint ? (
        <p className="text-xs text-muted-foreground">{hint}</p>
      ) : null}
    </div>
  );
}

function HostPort(props: {
  prefix: string;
  host: string;
  port: string;
  onHost: (v: string) => void;
  onPort: (v: string) => void;
  hostError?: string;
  portError?: string;
  readOnly: boolean;
  placeholder: string;
}) {
  return (
    <div className="grid gap-4 sm:grid-cols-[1fr_8rem]">
      <Field label="Host" id={`${props.prefix}-host`} error={props.hostError}>
        <Input
          id={`${props.prefix}-host`}
          value={props.host}
          onChange={(e) => props.onHost(e.target.value)}
          placeholder={props.placeholder}
          readOnly={props.readOnly}
          aria-invalid={props.hostError ? true : undefined}
        />
      </Field>
      <Field label="Port" id={`${props.prefix}-port`} error={props.portError}>
        <Input
          id={`${props.prefix}-port`}
          inputMode="numeric"
          value={props.port}
          onChange={(e) => props.onPort(e.target.value)}
          readOnly={props.readOnly}
          aria-invalid={props.portError ? true : undefined}
        />
      </Field>
    </div>
  );
}

/** Asks the Wyoming service at host:port what it runs (describe → info) and lists its models. */
function Probe({ host, port, onPick }: { host: string; port: string; onPick: (name: string) => void }) {
  const probe = useProbeSpeechService();
  const resultId = useId();
  const portNumber = Number(port);
  const ready = host.trim() !== '' && Number.isInteger(portNumber) && portNumber > 0;
  return (
    <div className="grid gap-3">
      <div>
        <Button
          type="button"
          variant="outline"
          size="sm"
          disabled={!ready || probe.isPending}
          aria-controls={resultId}
          onClick={() => probe.mutate({ host: host.trim(), port: portNumber })}
        >
          {probe.isPending ? <Spinner label="Probing" /> : <Radar aria-hidden="true" />}
          Probe service
        </Button>
      </div>
      <div id={resultId} aria-live="polite">
        {probe.error ? <ErrorText error={probe.error} /> : null}
        {probe.data ? <ProbeResult result={probe.data} onPick={onPick} /> : null}
      </div>
    </div>
  );
}

function ProbeResult({ result, onPick }: { result: SpeechProbeResult; onPick: (name: string) => void }) {
  if (result.programs.length === 0) {
    return (
      <p className="text-sm text-muted-foreground">
        {result.host}:{result.port} answered in {result.ms} ms but reports no programs.
      </p>
    );
  }
  return (
    <div className="grid gap-3 rounded-lg border p-3 text-sm" data-testid="probe-result">
      <p className="text-muted-foreground">
        {result.host}:{result.port} answered in {result.ms} ms.
      </p>
      {result.programs.map((program) => (
        <div key={`${program.kind}-${program.name}`} className="grid gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <span className="font-medium">{program.name}</span>
            <Badge variant="outline">{WYOMING_PROGRAM_KIND_LABELS[program.kind]}</Badge>
            {program.version ? (
              <span className="text-xs text-muted-foreground">v{program.version}</span>
            ) : null}
            {program.installed ? null : <Badge variant="warning">Not installed</Badge>}
          </div>
          {program.description ? (
            <p className="text-xs text-muted-foreground">{program.description}</p>
          ) : null}
          {program.models.length === 0 ? (
            <p className="text-xs text-muted-foreground">No models listed.</p>
          ) : (
            <ul className="grid gap-1" aria-label={`${program.name} models`}>
              {program.models.map((model) => (
                <li key={model.name} className="flex flex-wrap items-center gap-2">
                  <span className="font-mono text-xs">{model.name}</span>
                  {model.languages.length ? (
                    <span className="text-xs text-muted-foreground">{model.languages.join(', ')}</span>
                  ) : null}
                  {model.installed ? (
                    <Badge variant="success">Installed</Badge>
                  ) : (
                    <Badge variant="secondary">Not installed</Badge>
                  )}
                  {program.kind === 'asr' || program.kind === 'tts' ? (
                    <Button
                      type="button"
                      variant="ghost"
                      size="sm"
                      className="h-7"
                      onClick={() => onPick(model.name)}
                      aria-label={`Use ${model.name}`}
                    >
                      Use
                    </Button>
                  ) : null}
                </li>
              ))}
            </ul>
          )}
        </div>
      ))}
    </div>
  );
}
