import { Label } from '@/components/ui/label';
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from '@/components/ui/select';

const DEFAULT_DEVICE = 'default-device';

/** The browser's recording devices (enumerateDevices); labels show once the microphone is allowed. */
export function DeviceSelect({
  devices,
  value,
  onChange,
  id = 'recording-device',
}: {
  devices: MediaDeviceInfo[];
  value: string | undefined;
  onChange: (deviceId: string | undefined) => void;
  id?: string;
}) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>Recording device</Label>
      <Select
        value={value ?? DEFAULT_DEVICE}
        onValueChange={(v) => onChange(v === DEFAULT_DEVICE ? undefined : v)}
      >
        <SelectTrigger id={id} className="w-full sm:w-80">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          <SelectItem value={DEFAULT_DEVICE}>The browser's default microphone</SelectItem>
          {devices
            .filter((device) => device.deviceId && device.deviceId !== 'default')
            .map((device, index) => (
              <SelectItem key={device.deviceId} value={device.deviceId}>
                {device.label || `Microphone ${index + 1}`}
              </SelectItem>
            ))}
        </SelectContent>
      </Select>
    </div>
  );
}

/** The device's name as stored with each sample. */
export function deviceName(
  devices: MediaDeviceInfo[],
  deviceId: string | undefined,
  fallback: string,
): string {
  return devices.find((device) => device.deviceId === deviceId)?.label || fallback;
}
