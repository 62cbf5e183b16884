import QRCode from 'qrcode';
import { useEffect, useState } from 'react';
import { Skeleton } from '@/components/ui/skeleton';

const SIZE_PX = 192;

type Drawn = { value: string; dataUrl: string | null };

/** A QR code of `value`, drawn in the browser so the secret it carries never leaves it again. */
export function QrCode({ value, alt }: { value: string; alt: string }) {
  const [drawn, setDrawn] = useState<Drawn | null>(null);

  useEffect(() => {
    let current = true;
    QRCode.toDataURL(value, { errorCorrectionLevel: 'M', margin: 2, width: SIZE_PX }).then(
      (dataUrl) => current && setDrawn({ value, dataUrl }),
      () => current && setDrawn({ value, dataUrl: null }),
    );
    return () => {
      current = false;
    };
  }, [value]);

  // Until the drawing for this very value is done, an older one would show the wrong secret.
  if (drawn?.value !== value) {
    return (
      <div role="status" style={{ width: SIZE_PX, height: SIZE_PX }}>
        <span className="sr-only">Drawing the QR code</span>
        <Skeleton className="size-full" />
      </div>
    );
  }
  if (!drawn.dataUrl) {
    return (
      <p role="alert" className="text-sm text-destructive">
        The QR code could not be drawn: type the secret key below into your authenticator app instead.
      </p>
    );
  }
  // Dark on white whatever the theme: authenticator apps read that best.
  return (
    <img
      src={drawn.dataUrl}
      alt={alt}
      width={SIZE_PX}
      height={SIZE_PX}
      className="rounded-md border bg-white"
    />
  );
}
