import { useState } from 'react';
import {
  ArrowDown,
  ArrowUp,
  Lock,
  LockOpen,
  Minus,
  Pause,
  Play,
  Plus,
  SkipBack,
  SkipForward,
  Square,
  Volume2,
  VolumeX,
} from 'lucide-react';
import type { HaEntity } from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Slider } from '@/components/ui/slider';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { useCallService } from '@/data/home-assistant';

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** Sends one service call for one entity, telling the owner when Home Assistant refuses it. */
function useEntityCall(entity: HaEntity) {
  const mutation = useCallService();
  const call = (service: string, data?: Record<string, unknown>, domain = entity.domain) =>
    mutation.mutate(
      { domain, service, entityId: entity.entity_id, data },
      {
        onError: (error) =>
          toast({
            variant: 'destructive',
            title: `${entity.name}: ${service.replace(/_/g, ' ')} failed`,
            description: errorMessage(error) ?? error.message,
          }),
      },
    );
  return { call, pending: mutation.isPending };
}

/** A slider that follows the entity, except while the owner drags it; it sends on release. */
function useSliderValue(external: number) {
  const [dragged, setDragged] = useState<number | null>(null);
  return {
    value: dragged ?? external,
    onValueChange: (v: number[]) => setDragged(v[0] ?? external),
    release: () => setDragged(null),
  };
}

/** The control that fits the entity's domain; null for domains without one. */
export function EntityControl({ entity }: { entity: HaEntity }) {
  switch (entity.domain) {
    case 'light':
      return <LightControl entity={entity} />;
    case 'switch':
      return <SwitchControl entity={entity} />;
    case 'cover':
      return <CoverControl entity={entity} />;
    case 'climate':
      return <ClimateControl entity={entity} />;
    case 'media_player':
      return <MediaControl entity={entity} />;
    case 'scene':
    case 'script':
      return <RunControl entity={entity} />;
    case 'lock':
      return <LockControl entity={entity} />;
    case 'alarm_control_panel':
      return <AlarmControl entity={entity} />;
    default:
      return null;
  }
}

function Toggle({
  entity,
  pending,
  onChange,
}: {
  entity: HaEntity;
  pending: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <Switch
      checked={entity.state === 'on'}
      disabled={pending || entity.state === 'unavailable'}
      onCheckedChange={onChange}
      aria-label={`${entity.name} ${entity.state === 'on' ? 'on' : 'off'}`}
    />
  );
}

function LightControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  const modes = (entity.attributes.supported_color_modes as string[] | undefined) ?? [];
  const dimmable = modes.some((m) => m !== 'onoff');
  const brightness = num(entity.attributes.brightness);
  const percent = entity.state === 'on' ? Math.round(((brightness ?? 255) / 255) * 100) : 0;
  const slider = useSliderValue(percent);
  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-3">
        <span className="text-sm text-muted-foreground">
          {entity.state === 'on' ? `On · ${percent}%` : 'Off'}
        </span>
        <Toggle entity={entity} pending={pending} onChange={(on) => call(on ? 'turn_on' : 'turn_off')} />
      </div>
      {dimmable ? (
        <Slider
          thumbLabel={`${entity.name} brightness`}
          min={0}
          max={100}
          step={1}
          value={[slider.value]}
          onValueChange={slider.onValueChange}
          onValueCommit={(v) => {
            slider.release();
            call('turn_on', { brightness_pct: v[0] ?? 0 });
          }}
        />
      ) : null}
    </div>
  );
}

function SwitchControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  return (
    <div className="flex items-center justify-between gap-3">
      <span className="text-sm text-muted-foreground">{entity.state === 'on' ? 'On' : 'Off'}</span>
      <Toggle entity={entity} pending={pending} onChange={(on) => call(on ? 'turn_on' : 'turn_off')} />
    </div>
  );
}

function CoverControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  const position = num(entity.attributes.current_position);
  const slider = useSliderValue(position ?? 0);
  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-2">
        <span className="text-sm text-muted-foreground">
          {entity.state.replace(/^./, (c) => c.toUpperCase())}
          {position !== undefined ? ` · ${position}%` : ''}
        </span>
        <div className="flex gap-1">
          <Button
            size="icon"
            variant="outline"
            aria-label={`Open ${entity.name}`}
            disabled={pending}
            onClick={() => call('open_cover')}
          >
            <ArrowUp />
          </Button>
          <Button
            size="icon"
            variant="outline"
            aria-label={`Stop ${entity.name}`}
            disabled={pending}
            onClick={() => call('stop_cover')}
          >
            <Square />
          </Button>
          <Button
            size="icon"
            variant="outline"
            aria-label={`Close ${entity.name}`}
            disabled={pending}
            onClick={() => call('close_cover')}
          >
            <ArrowDown />
          </Button>
        </div>
      </div>
      {position !== undefined ? (
        <Slider
          thumbLabel={`${entity.name} position`}
          min={0}
          max={100}
          step={1}
          value={[slider.value]}
          onValueChange={slider.onValueChange}
          onValueCommit={(v) => {
            slider.release();
            call('set_cover_position', { position: v[0] ?? 0 });
          }}
        />
      ) : null}
    </div>
  );
}

function ClimateControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  const a = entity.attributes;
  const target = num(a.temperature);
  const current = num(a.current_temperature);
  const step = num(a.target_temp_step) ?? 0.5;
  const min = num(a.min_temp) ?? 7;
  const max = num(a.max_temp) ?? 35;
  const modes = (a.hvac_modes as string[] | undefined) ?? [];
  const setTo = (value: number) => call('set_temperature', { temperature: Math.round(value / step) * step });
  return (
    <div className="grid gap-3">
      <div className="flex items-center justify-between gap-2">
        <div className="text-sm text-muted-foreground">
          {current !== undefined ? `Now ${current}°` : 'Current temperature unknown'}
          {typeof a.hvac_action === 'string' ? ` · ${a.hvac_action}` : ''}
        </div>
        <div className="flex items-center gap-1">
          <Button
            size="icon"
            variant="outline"
            aria-label={`Lower ${entity.name} set point`}
            disabled={pending || target === undefined || target - step < min}
            onClick={() => target !== undefined && setTo(target - step)}
          >
            <Minus />
          </Button>
          <output
            className="w-16 text-center text-lg font-semibold tabular-nums"
            aria-label={`${entity.name} set point`}
          >
            {target !== undefined ? `${target}°` : '—'}
          </output>
          <Button
            size="icon"
            variant="outline"
            aria-label={`Raise ${entity.name} set point`}
            disabled={pending || target === undefined || target + step > max}
            onClick={() => target !== undefined && setTo(target + step)}
          >
            <Plus />
          </Button>
        </div>
      </div>
      {modes.length ? (
        <Select value={entity.state} onValueChange={(mode) => call('set_hvac_mode', { hvac_mode: mode })}>
          <SelectTrigger aria-label={`${entity.name} mode`}>
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {modes.map((m) => (
              <SelectItem key={m} value={m}>
                {m.replace(/_/g, ' / ').replace(/^./, (c) => c.toUpperCase())}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
      ) : null}
    </div>
  );
}

function MediaControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  const a = entity.attributes;
  const volume = Math.round((num(a.volume_level) ?? 0) * 100);
  const muted = a.is_volume_muted === true;
  const slider = useSliderValue(volume);
  const playing = entity.state === 'playing';
  return (
    <div className="grid gap-3">
      <div className="min-h-10 text-sm">
        {typeof a.media_title === 'string' ? (
          <>
            <div className="truncate font-medium">{a.media_title}</div>
            <div className="truncate text-muted-foreground">
              {typeof a.media_artist === 'string' ? a.media_artist : ''}
            </div>
          </>
        ) : (
          <span className="text-muted-foreground">Nothing playing</span>
        )}
      </div>
      <div className="flex items-center gap-1">
        <Button
          size="icon"
          variant="outline"
          aria-label={`Previous track on ${entity.name}`}
          disabled={pending}
          onClick={() => call('media_previous_track')}
        >
          <SkipBack />
        </Button>
        <Button
          size="icon"
          aria-label={playing ? `Pause ${entity.name}` : `Play ${entity.name}`}
          disabled={pending}
          onClick={() => call(playing ? 'media_pause' : 'media_play')}
        >
          {playing ? <Pause /> : <Play />}
        </Button>
        <Button
          size="icon"
          variant="outline"
          aria-label={`Next track on ${entity.name}`}
          disabled={pending}
          onClick={() => call('media_next_track')}
        >
          <SkipForward />
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="ml-auto"
          aria-label={muted ? `Unmute ${entity.name}` : `Mute ${entity.name}`}
          aria-pressed={muted}
          disabled={pending}
          onClick={() => call('volume_mute', { is_volume_muted: !muted })}
        >
          {muted ? <VolumeX /> : <Volume2 />}
        </Button>
      </div>
      <Slider
        thumbLabel={`${entity.name} volume`}
        min={0}
        max={100}
        step={1}
        value={[slider.value]}
        onValueChange={slider.onValueChange}
        onValueCommit={(v) => {
          slider.release();
          call('volume_set', { volume_level: (v[0] ?? 0) / 100 });
        }}
      />
    </div>
  );
}

function RunControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  return (
    <Button
      variant="outline"
      disabled={pending}
      onClick={() => call('turn_on')}
      aria-label={`${entity.domain === 'scene' ? 'Activate' : 'Run'} ${entity.name}`}
    >
      <Play />
      {entity.domain === 'scene' ? 'Activate' : 'Run'}
    </Button>
  );
}

/** Locking or unlocking a door asks first: a stray tap must not open the house. */
function LockControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  const locked = entity.state === 'locked';
  const verb = locked ? 'Unlock' : 'Lock';
  return (
    <div className="flex items-center justify-between gap-3">
      <span className="text-sm text-muted-foreground">
        {locked ? 'Locked' : entity.state.replace(/^./, (c) => c.toUpperCase())}
      </span>
      <ConfirmButton
        variant="outline"
        disabled={pending || entity.state === 'unavailable'}
        question={`${verb} ${entity.name}?`}
        description={locked ? 'The door can be opened once it is unlocked.' : 'The door locks now.'}
        confirmLabel={verb}
        destructive={locked}
        onConfirm={() => call(locked ? 'unlock' : 'lock')}
      >
        {locked ? <LockOpen /> : <Lock />}
        {verb}
      </ConfirmButton>
    </div>
  );
}

const ALARM_ACTIONS = [
  { service: 'alarm_arm_home', label: 'Arm home', when: (s: string) => s === 'disarmed' },
  { service: 'alarm_arm_away', label: 'Arm away', when: (s: string) => s === 'disarmed' },
  { service: 'alarm_disarm', label: 'Disarm', when: (s: string) => s !== 'disarmed' },
] as const;

/** An alarm panel: arming and disarming ask first. Panels that need a code are armed in HA itself. */
function AlarmControl({ entity }: { entity: HaEntity }) {
  const { call, pending } = useEntityCall(entity);
  return (
    <div className="flex flex-wrap items-center justify-between gap-3">
      <span className="text-sm text-muted-foreground">{entity.state.replace(/_/g, ' ')}</span>
      <div className="flex flex-wrap gap-2">
        {ALARM_ACTIONS.filter((a) => a.when(entity.state)).map((a) => (
          <ConfirmButton
            key={a.service}
            size="sm"
            variant="outline"
            disabled={pending || entity.state === 'unavailable'}
            question={`${a.label}: ${entity.name}?`}
            description="Home Assistant changes the alarm now."
            confirmLabel={a.label}
            destructive={a.service === 'alarm_disarm'}
            onConfirm={() => call(a.service)}
          >
            {a.label}
          </ConfirmButton>
        ))}
      </div>
    </div>
  );
}
