import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';

/** What a signed-in user who is not an administrator sees on an admin section. */
export function AdminOnly({ what }: { what: string }) {
  return (
    <Alert>
      <AlertTitle>For administrators</AlertTitle>
      <AlertDescription>{what} needs an administrator of this hub.</AlertDescription>
    </Alert>
  );
}
