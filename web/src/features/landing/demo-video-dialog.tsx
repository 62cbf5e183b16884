import { AudioLines } from 'lucide-react';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '@/components/ui/dialog';
import { WatchDemoButton } from './watch-demo-button';

/** Spec §1: the demo video is not made yet, and the dialog says so. */
export function DemoVideoDialog({ defaultOpen = false }: { defaultOpen?: boolean }) {
  return (
    <Dialog defaultOpen={defaultOpen}>
      <DialogTrigger asChild>
        <WatchDemoButton />
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Demo Video Coming Soon</DialogTitle>
          <DialogDescription>
            A walk through the console is being recorded. Until then, the Help pages show how to set up the
            hub and what each part does.
          </DialogDescription>
        </DialogHeader>
        <div className="grid aspect-video place-items-center rounded-lg border bg-muted text-muted-foreground">
          <AudioLines aria-hidden="true" className="size-10" />
        </div>
      </DialogContent>
    </Dialog>
  );
}
