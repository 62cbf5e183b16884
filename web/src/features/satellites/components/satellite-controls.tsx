import { Megaphone, RotateCcw } from 'lucide-react';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import {
  MEMBER_SATELLITE_ACTIONS,
  satelliteControlInputSchema,
  type Satellite,
  type SatelliteControlAction,
  type SatelliteControlInput,
} from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { ConfirmButton } from '@/components/ui/confirm';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Slider } from '@/components/ui/slider';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useSatelliteControl } from '@/data/satellites';
import { wakeWordLabel } from './satellite-format';

const ACTION_WORDS: Record<SatelliteControlAction, string> = {
  volume: 'volume',
  mute: 'mute',
  'wake-word': 'wake word',
  led: 'LED',
  restart: 'restart',
  announce: 'announcement',
};

const ADMIN_ONLY_NOTE = 'Only an administrator of this hub changes this setting.';

/** Why a satellite has none of the controls, by where it comes from. */
function noControlsReason(satellite: Satellite): string {
  switch (satellite.source) {
    case 'nexus':
      return `${satellite.name} uses the Nexus satellite API: it reports to the hub with heartbeats and takes no commands from it. Change its volume, wake word and lights on the device itself.`;
    case 'wyoming':
      return `The Wyoming protocol gives the hub no volume, LED or wake-word settings on ${satellite.name}: it streams audio to and from the hub. Change them in wyoming-satellite's options on the device.`;
    case 'home-assistant':
      return `Home Assistant has no volume, mute, wake-word, LED, restart or announce entity for ${satellite.name} (or they are unavailable while the device is offline), so there is nothing the hub can set.`;
  }
}

/**
 * Sends one action, telling the owner when the hub or the device refuses it (409: the device lacks
 * it; 403: not for members; 502/504: Home Assistant or the satellite did not do it).
 */
function useControl(satellite: Satellite) {
  const mutation = useSatelliteControl(satellite.id);
  const send = (
    input: SatelliteControlInput,
    opts: { success?: string; onSuccess?: () => void; onSettled?: () => void } = {},
  ) => {
    const parsed = satelliteControlInputSchema.safeParse(input);
    if (!parsed.success) {
      toast({
        variant: 'destructive',
        title: `${satellite.name}: ${ACTION_WORDS[input.action]} not sent`,
        description: parsed.error.issues[0]?.message,
      });
      opts.onSettled?.();
      return;
    }
    mutation.mutate(parsed.data, {
      onSuccess: () => {
        if (opts.success) toast({ title: opts.success, description: satellite.name });
        opts.onSuccess?.();
      },
      onError: (error) =>
        toast({
          variant: 'destructive',
          title: `${satellite.name}: ${ACTION_WORDS[input.action]} failed`,
          description: errorMessage(error) ?? error.message,
        }),
      onSettled: () => opts.onSettled?.(),
    });
  };
  return { send, pending: mutation.isPending };
}

/** A value the owner is changing: shown instead of the device's until the device answers. */
function usePending<T>() {
  const [value, setValue] = useState<{ v: T } | null>(null);
  return {
    value,
    set: (v: T) => setValue({ v }),
    clear: () => setValue(null),
  };
}

/**
 * The controls a satellite has (from its `controls`; a null control is not shown). Admin-only
 * actions are shown disabled to members, with why.
 */
export function SatelliteControls({ satellite, isAdmin }: { satellite: Satellite; isAdmin: boolean }) {
  const { controls } = satellite;
  const { send, pending } = useControl(satellite);
  const allowed = (action: SatelliteControlAction) => isAdmin || MEMBER_SATELLITE_ACTIONS.includes(action);
  const hasAny =
    controls.volume !== null ||
    controls.mute !== null ||
    controls.wakeWord !== null ||
    controls.led !== null ||
    controls.restart ||
    controls.announce;

  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Controls
        </CardTitle>
        <CardDescription>
          {hasAny ? 'Changes go to the device at once.' : 'This satellite takes no controls from the hub.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-6">
        {!hasAny ? (
          <p className="text-sm text-muted-foreground" data-testid="no-controls">
            {noControlsReason(satellite)}
          </p>
        ) : null}
        {controls.volume ? (
          <VolumeControl
            name={satellite.name}
            value={controls.volume.value}
            disabled={!allowed('volume')}
            send={send}
          />
        ) : null}
        {controls.mute ? (
          <ControlRow label="Microphone" note={allowed('mute') ? undefined : ADMIN_ONLY_NOTE}>
            {(id) => (
              <div className="flex items-center gap-3">
                <Switch
                  id={id}
                  checked={controls.mute?.value === true}
                  disabled={!allowed('mute') || pending}
                  aria-label="Mute the microphone"
                  onCheckedChange={(on) => send({ action: 'mute', value: on })}
                />
                <span className="text-sm text-muted-foreground">
                  {controls.mute?.value === null
                    ? 'Unknown'
                    : controls.mute?.value
                      ? 'Muted: not listening for its wake word'
                      : 'Listening'}
                </span>
              </div>
            )}
          </ControlRow>
        ) : null}
        {controls.wakeWord ? (
          <ControlRow
            label="Wake word"
            note={allowed('wake-word') ? undefined : ADMIN_ONLY_NOTE}
            labelFor="trigger"
          >
            {(id) => (
              <Select
                value={controls.wakeWord?.value ?? undefined}
                disabled={!allowed('wake-word') || pending}
                onValueChange={(value) => send({ action: 'wake-word', value })}
              >
                <SelectTrigger id={id} className="w-64">
                  <SelectValue placeholder="None chosen" />
                </SelectTrigger>
                <SelectContent>
                  {controls.wakeWord?.options.map((option) => (
                    <SelectItem key={option} value={option}>
                      {wakeWordLabel(option)}
                    </SelectItem>
                  ))}
                </SelectContent>
              </Select>
            )}
          </ControlRow>
        ) : null}
        {controls.led ? (
          <LedControl
            name={satellite.name}
            led={controls.led}
            disabled={!allowed('led')}
            pending={pending}
            send={send}
          />
        ) : null}
        {controls.announce ? (
          <AnnounceControl disabled={!allowed('announce')} pending={pending} send={send} />
        ) : null}
        {controls.restart ? (
          <ControlRow label="Restart" note={allowed('restart') ? undefined : ADMIN_ONLY_NOTE} labelFor="none">
            {() => (
              <ConfirmButton
                variant="outline"
                disabled={!allowed('restart') || pending}
                question={`Restart ${satellite.name}?`}
                description="It stops listening while it starts again, which takes about half a minute; a question asked meanwhile is not heard."
                confirmLabel="Restart"
                onConfirm={() => send({ action: 'restart' }, { success: 'Restarting' })}
              >
                <RotateCcw aria-hidden="true" /> Restart {satellite.name}
              </ConfirmButton>
            )}
          </ControlRow>
        ) : null}
      </CardContent>
    </Card>
  );
}

type Send = ReturnType<typeof useControl>['send'];

/**
 * One control with its label and, for a member, why it is disabled. `labelFor` "trigger" labels the
 * element given the id; "none" draws the label as a heading for a control that names itself.
 */
function ControlRow({
  label,
  note,
  labelFor = 'trigger',
  children,
}: {
  label: string;
  note?: string;
  labelFor?: 'trigger' | 'none';
  children: (id: string) => ReactNode;
}) {
  const id = useId();
  const noteId = `${id}-note`;
  return (
    <div
      className="grid gap-2"
      role="group"
      aria-labelledby={`${id}-label`}
      aria-describedby={note ? noteId : undefined}
    >
      {labelFor === 'trigger' ? (
        <Label id={`${id}-label`} htmlFor={id}>
          {label}
        </Label>
      ) : (
        <span id={`${id}-label`} className="text-sm font-medium">
          {label}
        </span>
      )}
      {children(id)}
      {note ? (
        <p id={noteId} className="text-xs text-muted-foreground">
          {note}
        </p>
      ) : null}
    </div>
  );
}

function VolumeControl({
  name,
  value,
  disabled,
  send,
}: {
  name: string;
  value: number | null;
  disabled: boolean;
  send: Send;
}) {
  const dragged = usePending<number>();
  const shown = dragged.value?.v ?? (value === null ? 0 : Math.round(value));
  return (
    <ControlRow label="Volume" note={disabled ? ADMIN_ONLY_NOTE : undefined} labelFor="none">
      {() => (
        <div className="flex items-center gap-3">
          <Slider
            thumbLabel={`Volume of ${name}`}
            className="max-w-sm"
            min={0}
            max={100}
            step={1}
            disabled={disabled}
            value={[shown]}
            onValueChange={(v) => dragged.set(v[0] ?? 0)}
            onValueCommit={(v) => send({ action: 'volume', value: v[0] ?? 0 }, { onSettled: dragged.clear })}
          />
          <span className="w-20 text-sm tabular-nums text-muted-foreground" data-testid="volume-value">
            {value === null && !dragged.value ? 'Unknown' : `${shown}%`}
          </span>
        </div>
      )}
    </ControlRow>
  );
}

function LedControl({
  name,
  led,
  disabled,
  pending,
  send,
}: {
  name: string;
  led: NonNullable<Satellite['controls']['led']>;
  disabled: boolean;
  pending: boolean;
  send: Send;
}) {
  const brightness = usePending<number>();
  const [colour, setColour] = useState<string | null>(null);
  const shownBrightness = brightness.value?.v ?? Math.round(led.brightness ?? 0);
  const shownColour = colour ?? led.color ?? '#ffffff';
  const id = useId();
  return (
    <ControlRow label="LED ring" note={disabled ? ADMIN_ONLY_NOTE : undefined} labelFor="none">
      {() => (
        <div className="grid gap-3">
          <div className="flex items-center gap-3">
            <Switch
              checked={led.on === true}
              disabled={disabled || pending}
              aria-label={`LED of ${name}`}
              onCheckedChange={(on) => send({ action: 'led', value: { on } })}
            />
            <span className="text-sm text-muted-foreground">
              {led.on === null ? 'Unknown' : led.on ? 'On' : 'Off'}
            </span>
          </div>
          {led.brightness !== null || led.on !== null ? (
            <div className="flex items-center gap-3">
              <span className="w-24 text-sm">Brightness</span>
              <Slider
                thumbLabel={`LED brightness of ${name}`}
                className="max-w-xs"
                min={0}
                max={100}
                step={1}
                disabled={disabled}
                value={[shownBrightness]}
                onValueChange={(v) => brightness.set(v[0] ?? 0)}
                onValueCommit={(v) =>
                  send({ action: 'led', value: { brightness: v[0] ?? 0 } }, { onSettled: brightness.clear })
                }
              />
              <span className="text-sm tabular-nums text-muted-foreground">{shownBrightness}%</span>
            </div>
          ) : null}
          <form
            className="flex items-center gap-3"
            onSubmit={(event) => {
              event.preventDefault();
              send({ action: 'led', value: { color: shownColour } }, { onSettled: () => setColour(null) });
            }}
          >
            <Label htmlFor={`${id}-colour`} className="w-24 font-normal">
              Colour
            </Label>
            <Input
              id={`${id}-colour`}
              type="color"
              className="h-9 w-16 p-1"
              disabled={disabled}
              value={shownColour}
              onChange={(event) => setColour(event.target.value)}
            />
            <Button type="submit" variant="outline" size="sm" disabled={disabled || pending}>
              Set colour
            </Button>
          </form>
        </div>
      )}
    </ControlRow>
  );
}

function AnnounceControl({ disabled, pending, send }: { disabled: boolean; pending: boolean; send: Send }) {
  const [text, setText] = useState('');
  const id = useId();
  function submit(event: FormEvent) {
    event.preventDefault();
    send(
      { action: 'announce', value: text },
      {
        success: 'Announcement sent',
        // Kept after a refusal, so it can be sent again.
        onSuccess: () => setText(''),
      },
    );
  }
  return (
    <form className="grid gap-2" onSubmit={submit}>
      <Label htmlFor={id}>Announcement</Label>
      <div className="flex flex-wrap items-center gap-2">
        <Input
          id={id}
          className="max-w-md"
          maxLength={500}
          placeholder="e.g. Dinner is ready"
          value={text}
          disabled={disabled}
          onChange={(event) => setText(event.target.value)}
        />
        <Button type="submit" disabled={disabled || pending || text.trim() === ''}>
          <Megaphone aria-hidden="true" /> Send
        </Button>
      </div>
      <p className="text-xs text-muted-foreground">The satellite speaks it aloud.</p>
    </form>
  );
}
