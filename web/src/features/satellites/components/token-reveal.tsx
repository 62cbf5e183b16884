import { useId, useRef, type ReactNode } from 'react';
import {
  SATELLITE_HEARTBEAT_INTERVAL_MS,
  SATELLITE_OFFLINE_AFTER_MS,
  type SatelliteWithToken,
} from '@nexus/agent/contract';
import { Button } from '@/components/ui/button';
import { DialogDescription, DialogFooter, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { satelliteEndpoints } from '@/data/satellites';
import { CopyButton } from './copy-button';
import { setupCommands } from './satellite-format';

/**
 * The body of a dialog that shows a satellite's token, the one time the agent hands it out (it
 * keeps only a hash), with what the satellite calls. `rotated` is for a new token that replaced one.
 */
export function TokenReveal({
  issued,
  rotated = false,
  onDone,
}: {
  issued: SatelliteWithToken;
  rotated?: boolean;
  onDone: () => void;
}) {
  const { satellite, token } = issued;
  const tokenRef = useRef<HTMLElement>(null);
  // The hub as this browser reaches it, which is usually how a satellite on the same network does too.
  const endpoints = satelliteEndpoints(window.location.origin, satellite.id);
  const commands = setupCommands(endpoints, token);
  const heartbeatSeconds = SATELLITE_HEARTBEAT_INTERVAL_MS / 1000;
  const offlineSeconds = SATELLITE_OFFLINE_AFTER_MS / 1000;

  return (
    <>
      <DialogHeader>
        <DialogTitle>
          {rotated ? `New token for ${satellite.name}` : `${satellite.name} is added`}
        </DialogTitle>
        <DialogDescription>
          {rotated
            ? 'The old token no longer works. Put this one on the satellite so it can check in again.'
            : `Number ${satellite.id} on this hub. Put this token on the device so it can check in.`}
        </DialogDescription>
      </DialogHeader>

      <div className="grid gap-2 rounded-lg border border-warning/50 bg-warning/10 p-3">
        <p className="text-sm font-medium">
          Copy the token now: it is shown only this once. The hub keeps only a fingerprint of it.
        </p>
        <div className="flex items-start gap-2">
          <code
            ref={tokenRef}
            data-testid="satellite-token"
            className="min-w-0 flex-1 rounded bg-background px-2 py-1.5 font-mono text-xs break-all"
          >
            {token}
          </code>
          <CopyButton text={token} label="Copy the token" target={tokenRef} />
        </div>
      </div>

      <section className="grid gap-4" aria-label={`Setting up ${satellite.name}`}>
        <SetupStep
          title={`Check in every ${heartbeatSeconds} seconds`}
          url={endpoints.heartbeat}
          command={commands.heartbeat}
        >
          Send the signal strength in dBm, the active wake word and the firmware version, all optional; add{' '}
          <code className="font-mono text-xs">&quot;status&quot;: &quot;degraded&quot;</code> when something
          is wrong, such as no microphone. Without a heartbeat for {offlineSeconds} seconds it shows offline.
        </SetupStep>
        <SetupStep
          title="Send what it hears to a voice flow"
          url={endpoints.voiceRun}
          command={commands.voiceRun}
        >
          A WAV clip of what followed the wake word. Only an active voice flow whose trigger lists this
          satellite accepts it: tick the satellite in the flow&apos;s voice trigger in the FlowForge builder,
          whose address ends in the flow&apos;s number (?flow=…). Add{' '}
          <code className="font-mono text-xs">&amp;wait=true</code> for the answer to come once the run has
          finished.
        </SetupStep>
        <SetupStep
          title="Send wake-word samples"
          url={endpoints.wakeWordSample}
          command={commands.wakeWordSample}
        >
          Takes of a wake word as PCM WAV for Wake Word Training, recorded on the satellite&apos;s own
          microphone and filed under its name. The wake word&apos;s number ends the address of its Record
          samples screen (?wakeWord=…).
        </SetupStep>
      </section>

      <DialogFooter>
        <Button onClick={onDone}>I have stored it</Button>
      </DialogFooter>
    </>
  );
}

function SetupStep({
  title,
  url,
  command,
  children,
}: {
  title: string;
  url: string;
  command: string;
  children: ReactNode;
}) {
  const headingId = useId();
  const commandRef = useRef<HTMLPreElement>(null);
  return (
    <div role="group" aria-labelledby={headingId} className="grid gap-1.5">
      <h3 id={headingId} className="text-sm font-semibold">
        {title}
      </h3>
      <p className="text-sm text-muted-foreground">{children}</p>
      <p className="text-sm">
        <span className="font-medium">POST</span> <code className="font-mono text-xs break-all">{url}</code>
      </p>
      <div className="flex items-start gap-2">
        {/* Wrapped rather than scrolled: a scrolling box would need its own keyboard focus. */}
        <pre
          ref={commandRef}
          className="min-w-0 flex-1 rounded-md bg-muted px-3 py-2 font-mono text-xs break-all whitespace-pre-wrap"
        >
          {command}
        </pre>
        <CopyButton text={command} label={`Copy the command: ${title}`} target={commandRef} />
      </div>
    </div>
  );
}
