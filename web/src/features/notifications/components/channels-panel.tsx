import { useState, type FormEvent, type ReactNode } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Send, Share2 } from 'lucide-react';
import type {
  ChannelTestResult,
  NotificationChannel,
  NotificationChannels,
  NotificationChannelsInput,
} from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Panel } from '@/components/ui/panel';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';
import { Skeleton } from '@/components/ui/skeleton';
import { Switch } from '@/components/ui/switch';
import { toast } from '@/components/ui/use-toast';
import { errorMessage } from '@/lib/request';
import { channelsQueryOptions, timeAgo, useSaveChannels, useTestChannel } from '@/data/notifications';
import { CHANNEL_LABELS } from '../labels';

type Health = NotificationChannels['email']['health'];

/** Admins: the hub's outgoing channels, each with its settings, "Send test" and its record. */
export function ChannelsPanel() {
  const channels = useQuery(channelsQueryOptions());
  return (
    <Panel
      title="Channels"
      icon={Share2}
      description="How the hub reaches people outside this console. Secrets are stored encrypted and never shown again."
    >
      <RefreshError what="the channels" query={channels} />
      {channels.isLoading ? (
        <div role="status" className="space-y-2">
          <span className="sr-only">Loading channels</span>
          <Skeleton className="h-32 w-full" />
          <Skeleton className="h-32 w-full" />
        </div>
      ) : channels.isLoadingError ? (
        <Alert variant="destructive">
          <AlertTitle>Could not load the channels</AlertTitle>
          <AlertDescription>{errorMessage(channels.error)}</AlertDescription>
        </Alert>
      ) : channels.data ? (
        <div className="grid gap-4 lg:grid-cols-2">
          <EmailChannel data={channels.data.email} />
          <HomeAssistantChannel data={channels.data.homeAssistant} />
          <NtfyChannel data={channels.data.ntfy} />
          <WebhookChannel data={channels.data.webhook} />
        </div>
      ) : null}
    </Panel>
  );
}

function ChannelCard({
  channel,
  description,
  enabled,
  onEnabled,
  enableDisabled,
  health,
  onSubmit,
  saving,
  children,
}: {
  channel: NotificationChannel;
  description: ReactNode;
  enabled: boolean;
  onEnabled: (value: boolean) => void;
  enableDisabled?: boolean;
  health: Health;
  onSubmit: () => void;
  saving: boolean;
  children?: ReactNode;
}) {
  const test = useTestChannel();
  const [result, setResult] = useState<ChannelTestResult | null>(null);
  const name = CHANNEL_LABELS[channel];
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onSubmit();
  };
  return (
    <form
      onSubmit={submit}
      aria-label={`${name} channel`}
      className="flex flex-col gap-3 rounded-lg border bg-card p-4"
    >
      <div className="flex items-start justify-between gap-3">
        <div>
          <h3 className="font-medium">{name}</h3>
          <p className="text-xs text-muted-foreground">{description}</p>
        </div>
        <div className="flex items-center gap-2">
          <Switch
            id={`channel-${channel}-enabled`}
            aria-label={`${name} on`}
            checked={enabled}
            disabled={enableDisabled}
            onCheckedChange={onEnabled}
          />
          <Label htmlFor={`channel-${channel}-enabled`}>On</Label>
        </div>
      </div>
      {children}
      <HealthLine health={health} />
      <div className="flex flex-wrap items-center gap-2">
        <Button type="submit" size="sm" disabled={saving}>
          {saving ? 'Saving…' : 'Save'}
        </Button>
        <Button
          type="button"
          size="sm"
          variant="outline"
          disabled={test.isPending}
          onClick={() =>
            test.mutate(channel, {
              onSuccess: setResult,
              onError: (error) =>
                setResult({ ok: false, message: errorMessage(error) ?? 'The test could not be sent' }),
            })
          }
        >
          <Send aria-hidden="true" />
          {test.isPending ? 'Sending…' : 'Send test'}
        </Button>
      </div>
      <p role="status" className={result?.ok ? 'text-sm text-success' : 'text-sm text-destructive'}>
        {result && `${result.ok ? 'Test sent: ' : 'Test failed: '}${result.message}`}
      </p>
    </form>
  );
}

function HealthLine({ health }: { health: Health }) {
  const parts: string[] = [];
  parts.push(health.lastSentAt ? `Last sent ${timeAgo(health.lastSentAt)}` : 'Nothing sent yet');
  if (health.pending > 0) parts.push(`${health.pending} waiting for a retry`);
  return (
    <div className="text-xs">
      <p className="text-muted-foreground">{parts.join(' · ')}</p>
      {health.lastError && (
        <p className="text-destructive">
          Failing: {health.lastError}
          {health.lastFailureAt && ` (last failure ${timeAgo(health.lastFailureAt)})`}
        </p>
      )}
    </div>
  );
}

function useChannelSave(what: string) {
  const save = useSaveChannels();
  return {
    saving: save.isPending,
    run: (input: NotificationChannelsInput, after?: () => void) =>
      save.mutate(input, {
        onSuccess: () => {
          toast({ title: `${what} saved` });
          after?.();
        },
        onError: (error) =>
          toast({
            title: `Could not save ${what}`,
            description: errorMessage(error),
            variant: 'destructive',
          }),
      }),
  };
}

function EmailChannel({ data }: { data: NotificationChannels['email'] }) {
  const [enabled, setEnabled] = useState(data.enabled);
  const save = useChannelSave('E-mail');
  return (
    <ChannelCard
      channel="email"
      description={
        data.configured
          ? "To each person's account address, through the hub's SMTP server."
          : 'Needs SMTP_URL and SMTP_FROM in the hub’s environment.'
      }
      enabled={enabled}
      onEnabled={setEnabled}
      enableDisabled={!data.configured && !enabled}
      health={data.health}
      saving={save.saving}
      onSubmit={() => save.run({ email: { enabled } })}
    />
  );
}

function HomeAssistantChannel({ data }: { data: NotificationChannels['homeAssistant'] }) {
  const [enabled, setEnabled] = useState(data.enabled);
  const [service, setService] = useState(data.service);
  const save = useChannelSave('Home Assistant');
  const options = [...new Set([data.service, ...data.available])];
  return (
    <ChannelCard
      channel="homeAssistant"
      description="Home Assistant's notify services, e.g. the companion app's push. People can pick their own phone under Preferences."
      enabled={enabled}
      onEnabled={setEnabled}
      health={data.health}
      saving={save.saving}
      onSubmit={() => save.run({ homeAssistant: { enabled, service } })}
    >
      <div className="grid gap-1.5">
        <Label htmlFor="channel-ha-service">Default notify service</Label>
        <Select value={service} onValueChange={setService}>
          <SelectTrigger id="channel-ha-service">
            <SelectValue />
          </SelectTrigger>
          <SelectContent>
            {options.map((s) => (
              <SelectItem key={s} value={s}>
                {s}
              </SelectItem>
            ))}
          </SelectContent>
        </Select>
        {data.available.length === 0 && (
          <p className="text-xs text-muted-foreground">
            Home Assistant is not connected; its services show up once it is.
          </p>
        )}
      </div>
    </ChannelCard>
  );
}

/** A write-only secret: empty keeps the stored one, "remove" deletes it. */
function SecretField({
  id,
  label,
  stored,
  value,
  onChange,
  remove,
  onRemove,
}: {
  id: string;
  label: string;
  stored: boolean;
  value: string;
  onChange: (v: string) => void;
  remove: boolean;
  onRemove: (v: boolean) => void;
}) {
  return (
    <div className="grid gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      <Input
        id={id}
        type="password"
        autoComplete="off"
        value={value}
        disabled={remove}
        placeholder={stored ? 'Saved — type to replace' : 'Optional'}
        onChange={(e) => onChange(e.target.value)}
      />
      {stored && (
        <div className="flex items-center gap-2">
          <Checkbox id={`${id}-remove`} checked={remove} onCheckedChange={(v) => onRemove(v === true)} />
          <Label htmlFor={`${id}-remove`} className="text-xs font-normal">
            Remove the saved {label.toLowerCase()}
          </Label>
        </div>
      )}
    </div>
  );
}

/** Secret input for PUT: omitted keeps, "" removes, a value replaces. */
const secretInput = (value: string, remove: boolean) => (remove ? '' : value ? value : undefined);

function NtfyChannel({ data }: { data: NotificationChannels['ntfy'] }) {
  const [enabled, setEnabled] = useState(data.enabled);
  const [url, setUrl] = useState(data.url || 'https://ntfy.sh');
  const [topic, setTopic] = useState(data.topic);
  const [token, setToken] = useState('');
  const [removeToken, setRemoveToken] = useState(false);
  const save = useChannelSave('ntfy');
  return (
    <ChannelCard
      channel="ntfy"
      description="Push to phones through an ntfy server (ntfy.sh or your own). A server on your network must be allowed under FlowForge's Home network access."
      enabled={enabled}
      onEnabled={setEnabled}
      health={data.health}
      saving={save.saving}
      onSubmit={() =>
        save.run(
          {
            ntfy: {
              enabled,
              ...(url && { url }),
              ...(topic && { topic }),
              token: secretInput(token, removeToken),
            },
          },
          () => {
            setToken('');
            setRemoveToken(false);
          },
        )
      }
    >
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="grid gap-1.5">
          <Label htmlFor="channel-ntfy-url">Server URL</Label>
          <Input id="channel-ntfy-url" type="url" value={url} onChange={(e) => setUrl(e.target.value)} />
        </div>
        <div className="grid gap-1.5">
          <Label htmlFor="channel-ntfy-topic">Topic</Label>
          <Input
            id="channel-ntfy-topic"
            value={topic}
            pattern="[A-Za-z0-9_\-]{1,64}"
            onChange={(e) => setTopic(e.target.value)}
          />
        </div>
      </div>
      <SecretField
        id="channel-ntfy-token"
        label="Access token"
        stored={data.hasToken}
        value={token}
        onChange={setToken}
        remove={removeToken}
        onRemove={setRemoveToken}
      />
    </ChannelCard>
  );
}

function WebhookChannel({ data }: { data: NotificationChannels['webhook'] }) {
  const [enabled, setEnabled] = useState(data.enabled);
  const [url, setUrl] = useState(data.url);
  const [secret, setSecret] = useState('');
  const [removeSecret, setRemoveSecret] = useState(false);
  const save = useChannelSave('Webhook');
  return (
    <ChannelCard
      channel="webhook"
      description={
        <>
          A JSON POST per notification. With a secret, each carries <code>X-Nexus-Signature: sha256=…</code>{' '}
          (HMAC-SHA256 of the body) and <code>X-Nexus-Timestamp</code>.
        </>
      }
      enabled={enabled}
      onEnabled={setEnabled}
      health={data.health}
      saving={save.saving}
      onSubmit={() =>
        save.run(
          { webhook: { enabled, ...(url && { url }), secret: secretInput(secret, removeSecret) } },
          () => {
            setSecret('');
            setRemoveSecret(false);
          },
        )
      }
    >
      <div className="grid gap-1.5">
        <Label htmlFor="channel-webhook-url">URL</Label>
        <Input
          id="channel-webhook-url"
          type="url"
          value={url}
          placeholder="https://example.org/hooks/nexus"
          onChange={(e) => setUrl(e.target.value)}
        />
      </div>
      <SecretField
        id="channel-webhook-secret"
        label="Signing secret"
        stored={data.hasSecret}
        value={secret}
        onChange={setSecret}
        remove={removeSecret}
        onRemove={setRemoveSecret}
      />
    </ChannelCard>
  );
}
