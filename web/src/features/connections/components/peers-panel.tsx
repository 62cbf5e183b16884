import { useQuery } from '@tanstack/react-query';
import { Download, Plus, Smartphone, Trash2, TriangleAlert } from 'lucide-react';
import { useId, useState, type FormEvent } from 'react';
import type { WgPeer, WgPeerCreated } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { ConfirmButton } from '@/components/ui/confirm';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog';
import { Input } from '@/components/ui/input';
import { Panel } from '@/components/ui/panel';
import { Switch } from '@/components/ui/switch';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table';
import { toast } from '@/components/ui/use-toast';
import { formatBytes } from '@/lib/format-bytes';
import { errorMessage } from '@/lib/request';
import { cn } from '@/lib/utils';
import {
  downloadPeerConfig,
  isForbidden,
  useAddPeer,
  useDeletePeer,
  useUpdatePeer,
  wgPeersQueryOptions,
} from '@/data/vpn';
import { configFileName, handshakeAgo, saveTextFile, svgDataUrl } from '../connections-logic';
import { Empty, Field, LoadError, Loading } from './shared';

/** The devices that dial in to the hub's WireGuard server. Members see them read-only (if the API lets them). */
export function PeersPanel({ canEdit }: { canEdit: boolean }) {
  const peers = useQuery(wgPeersQueryOptions());
  const [adding, setAdding] = useState(false);
  return (
    <Panel
      title="Devices"
      icon={Smartphone}
      description="Phones and laptops that reach the hub through its WireGuard server. Online means a handshake in the last 3 minutes."
      actions={
        canEdit ? (
          <Button type="button" onClick={() => setAdding(true)}>
            <Plus aria-hidden="true" />
            Add device
          </Button>
        ) : null
      }
    >
      {peers.data ? (
        peers.data.length ? (
          <Table label="Devices">
            <TableHeader>
              <TableRow>
                <TableHead>Name</TableHead>
                <TableHead>Address</TableHead>
                <TableHead>State</TableHead>
                <TableHead>Transfer</TableHead>
                <TableHead>Endpoint</TableHead>
                <TableHead>Enabled</TableHead>
                {canEdit ? <TableHead className="sr-only sm:not-sr-only">Actions</TableHead> : null}
              </TableRow>
            </TableHeader>
            <TableBody>
              {peers.data.map((peer) => (
                <PeerRow key={peer.id} peer={peer} canEdit={canEdit} />
              ))}
            </TableBody>
          </Table>
        ) : (
          <Empty>
            No device yet.{' '}
            {canEdit
              ? 'Add your phone: it gets a config to scan into the WireGuard app.'
              : 'An admin adds devices here.'}
          </Empty>
        )
      ) : peers.error ? (
        isForbidden(peers.error) ? (
          <Empty>Only admins can see the devices.</Empty>
        ) : (
          <LoadError what="the devices" error={peers.error} />
        )
      ) : (
        <Loading label="Loading the devices" />
      )}
      {canEdit ? <AddDeviceDialog open={adding} onOpenChange={setAdding} /> : null}
    </Panel>
  );
}

function PeerRow({ peer, canEdit }: { peer: WgPeer; canEdit: boolean }) {
  const update = useUpdatePeer();
  const remove = useDeletePeer();
  const switchId = useId();
  const onError = (title: string) => (error: unknown) =>
    toast({ variant: 'destructive', title, description: errorMessage(error) });
  return (
    <TableRow data-testid={`peer-${peer.name}`}>
      <TableCell className="font-medium">{peer.name}</TableCell>
      <TableCell className="font-mono text-xs">{peer.address}</TableCell>
      <TableCell>
        <span className="inline-flex items-center gap-2 whitespace-nowrap">
          <span
            aria-hidden="true"
            className={cn('size-2 rounded-full', peer.online ? 'bg-success' : 'bg-muted-foreground')}
          />
          {peer.online ? 'Online' : 'Offline'}
          <span className="text-muted-foreground">· last handshake {handshakeAgo(peer.latestHandshake)}</span>
        </span>
      </TableCell>
      <TableCell className="whitespace-nowrap tabular-nums">
        ↓ {formatBytes(peer.rxBytes)} · ↑ {formatBytes(peer.txBytes)}
      </TableCell>
      <TableCell className="font-mono text-xs">{peer.endpoint ?? '—'}</TableCell>
      <TableCell>
        <Switch
          id={switchId}
          aria-label={`${peer.name} enabled`}
          checked={peer.enabled}
          disabled={!canEdit || update.isPending}
          onCheckedChange={(enabled) =>
            update.mutate({ id: peer.id, enabled }, { onError: onError('Could not change the device') })
          }
        />
      </TableCell>
      {canEdit ? (
        <TableCell>
          <div className="flex justify-end gap-2">
            {peer.configAvailable ? <DownloadOnceButton peer={peer} /> : null}
            <ConfirmButton
              variant="outline"
              size="sm"
              destructive
              disabled={remove.isPending}
              question={`Remove ${peer.name}?`}
              description="The device can no longer reach the hub; to let it back in, add it again and scan a new config."
              confirmLabel="Remove"
              aria-label={`Remove ${peer.name}`}
              onConfirm={() =>
                remove.mutate(peer.id, {
                  onSuccess: () => toast({ title: `${peer.name} is removed` }),
                  onError: onError('Could not remove the device'),
                })
              }
            >
              <Trash2 aria-hidden="true" />
              Remove
            </ConfirmButton>
          </div>
        </TableCell>
      ) : null}
    </TableRow>
  );
}

/** The agent hands a config out once more after creation (410 after): spend it only on a click. */
function DownloadOnceButton({ peer }: { peer: WgPeer }) {
  const [busy, setBusy] = useState(false);
  return (
    <Button
      type="button"
      variant="outline"
      size="sm"
      disabled={busy}
      aria-label={`Download ${peer.name}'s config (once)`}
      onClick={() => {
        setBusy(true);
        downloadPeerConfig(peer.id)
          .then(async (blob) => saveTextFile(configFileName(peer.name), await blob.text()))
          .catch((error: unknown) =>
            toast({
              variant: 'destructive',
              title: 'Could not download the config',
              description: errorMessage(error),
            }),
          )
          .finally(() => setBusy(false));
      }}
    >
      <Download aria-hidden="true" />
      Config
    </Button>
  );
}

function AddDeviceDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const add = useAddPeer();
  const close = (next: boolean) => {
    onOpenChange(next);
    // Closing forgets the config: it is shown this once.
    if (!next) add.reset();
  };
  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent className="max-w-2xl">
        {add.data ? (
          <CreatedConfig created={add.data} onDone={() => close(false)} />
        ) : (
          <AddDeviceForm
            pending={add.isPending}
            error={add.error}
            onSubmit={(input) => add.mutate(input)}
            onCancel={() => close(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function AddDeviceForm({
  pending,
  error,
  onSubmit,
  onCancel,
}: {
  pending: boolean;
  error: unknown;
  onSubmit: (input: { name: string; clientAllowedIps?: string[]; keepalive?: number }) => void;
  onCancel: () => void;
}) {
  const id = useId();
  const [name, setName] = useState('');
  const [routes, setRoutes] = useState('');
  const [keepalive, setKeepalive] = useState('25');
  const [fieldError, setFieldError] = useState<{ keepalive?: string }>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const seconds = keepalive.trim() === '' ? undefined : Number(keepalive);
    if (seconds !== undefined && (!Number.isInteger(seconds) || seconds < 0 || seconds > 3600)) {
      setFieldError({ keepalive: 'Enter a whole number of seconds from 0 to 3600, or leave it empty.' });
      return;
    }
    setFieldError({});
    const allowed = routes
      .split(/[\s,]+/)
      .map((r) => r.trim())
      .filter(Boolean);
    onSubmit({
      name: name.trim(),
      ...(allowed.length ? { clientAllowedIps: allowed } : {}),
      ...(seconds !== undefined ? { keepalive: seconds } : {}),
    });
  };
  return (
    <form onSubmit={submit} className="grid gap-4" noValidate>
      <DialogHeader>
        <DialogTitle>Add a device</DialogTitle>
        <DialogDescription>
          The hub makes the device&apos;s keys and a config for the WireGuard app, shown once.
        </DialogDescription>
      </DialogHeader>
      <Field id={`${id}-name`} label="Device name">
        {(aria) => (
          <Input
            {...aria}
            value={name}
            maxLength={60}
            required
            placeholder="e.g. Anna's phone"
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>
      <Field
        id={`${id}-routes`}
        label="Routes through the tunnel (optional)"
        hint="Comma-separated ranges the device sends through the hub, e.g. 192.168.1.0/24 for your home network only. Empty: the hub's default."
      >
        {(aria) => <Input {...aria} value={routes} onChange={(e) => setRoutes(e.target.value)} />}
      </Field>
      <Field
        id={`${id}-keepalive`}
        label="Keepalive, seconds (optional)"
        error={fieldError.keepalive}
        hint="25 keeps the tunnel open through mobile networks' NAT."
      >
        {(aria) => (
          <Input
            {...aria}
            inputMode="numeric"
            value={keepalive}
            onChange={(e) => setKeepalive(e.target.value)}
          />
        )}
      </Field>
      {error ? (
        <Alert variant="destructive">
          <AlertTitle>Could not add the device</AlertTitle>
          <AlertDescription>{errorMessage(error)}</AlertDescription>
        </Alert>
      ) : null}
      <DialogFooter>
        <Button type="button" variant="ghost" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending || !name.trim()}>
          {pending ? 'Adding…' : 'Add device'}
        </Button>
      </DialogFooter>
    </form>
  );
}

function CreatedConfig({ created, onDone }: { created: WgPeerCreated; onDone: () => void }) {
  const { peer, config, qrSvg } = created;
  return (
    <div className="grid gap-4" data-testid="peer-config">
      <DialogHeader>
        <DialogTitle>{peer.name} is added</DialogTitle>
        <DialogDescription>
          Scan the code with the WireGuard app (Add a tunnel → Create from QR code), or download the file.
        </DialogDescription>
      </DialogHeader>
      <Alert variant="warning">
        <TriangleAlert aria-hidden="true" />
        <AlertTitle>This config is shown once</AlertTitle>
        <AlertDescription>
          It holds the device&apos;s private key, which the hub does not keep readable. Once you close this
          window it cannot be shown again; if it is lost, remove the device and add it again.
        </AlertDescription>
      </Alert>
      <div className="flex flex-col gap-4 sm:flex-row">
        <img
          src={svgDataUrl(qrSvg)}
          alt={`QR code of ${peer.name}'s WireGuard config`}
          className="size-56 shrink-0 self-center rounded-md bg-white p-2"
        />
        <pre
          className="min-w-0 flex-1 overflow-x-auto rounded-md border bg-muted/40 p-3 text-xs"
          aria-label={`${peer.name}'s WireGuard config`}
          tabIndex={0}
        >
          {config}
        </pre>
      </div>
      <DialogFooter>
        <Button
          type="button"
          variant="outline"
          onClick={() => saveTextFile(configFileName(peer.name), config)}
        >
          <Download aria-hidden="true" />
          Download config
        </Button>
        <Button type="button" onClick={onDone}>
          Done
        </Button>
      </DialogFooter>
    </div>
  );
}
