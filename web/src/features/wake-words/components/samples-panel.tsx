import { useQuery } from '@tanstack/react-query';
import { Check, Trash2, X } from 'lucide-react';
import { useState } from 'react';
import type { SampleSource, SampleStatus, WakeWord, WakeWordSample } from '@nexus/agent/contract';
import { RefreshError } from '@/components/load-state';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '@/components/ui/tabs';
import { useAuth } from '@/features/auth';
import { errorMessage } from '@/lib/request';
import { sampleAudioUrl, samplesQueryOptions, useDeleteSample, useReviewSample } from '@/data/wake-words';
import { QualityDetails, VerdictBadge } from './quality';

type View = 'review' | 'moderation' | 'accepted' | 'rejected' | 'all';
const FILTERS: Record<View, { status?: SampleStatus; source?: SampleSource }> = {
  review: { status: 'pending' },
  moderation: { status: 'pending', source: 'crowdsource' },
  accepted: { status: 'accepted' },
  rejected: { status: 'rejected' },
  all: {},
};
const EMPTY: Record<View, string> = {
  review: 'Nothing to review: samples with a warning or a bad verdict wait here for you to listen to them.',
  moderation:
    'No contributions waiting. Open the wake word to crowdsourcing and share its /crowdsource link.',
  accepted: 'No accepted samples yet: record some on the training screen.',
  rejected: 'No rejected samples.',
  all: 'No samples yet: record some on the training screen.',
};

/** The samples of a wake word: listen, accept, reject, delete; the moderation queue of contributions. */
export function SamplesPanel({ wakeWord }: { wakeWord: WakeWord }) {
  const { isAdmin } = useAuth();
  const [view, setView] = useState<View>('review');
  const samples = useQuery(samplesQueryOptions(wakeWord.id, FILTERS[view]));
  return (
    <Card>
      <CardHeader>
        <CardTitle className="text-base">Samples</CardTitle>
        <CardDescription>
          Good samples count at once; the others wait for your review.
          {/* The agent lists a member's own takes only; the counts stay the household's. */}
          {!isAdmin && ' You hear the takes you recorded; an admin reviews everyone’s.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        <Tabs value={view} onValueChange={(v) => setView(v as View)}>
          <TabsList>
            <TabsTrigger value="review">To review ({wakeWord.progress.pending})</TabsTrigger>
            {isAdmin && <TabsTrigger value="moderation">Moderation queue</TabsTrigger>}
            <TabsTrigger value="accepted">Accepted ({wakeWord.progress.accepted})</TabsTrigger>
            <TabsTrigger value="rejected">Rejected ({wakeWord.progress.rejected})</TabsTrigger>
            <TabsTrigger value="all">All</TabsTrigger>
          </TabsList>
          {/* One panel, the chosen view's: the list below is filtered by the tab. */}
          <TabsContent value={view} className="mt-4">
            <RefreshError what="the samples" query={samples} className="mb-4" />
            {samples.isLoading ? (
              <div role="status" className="space-y-2">
                <span className="sr-only">Loading samples</span>
                <Skeleton className="h-24 w-full" />
              </div>
            ) : samples.isLoadingError ? (
              <p className="text-sm text-destructive">{errorMessage(samples.error)}</p>
            ) : !samples.data?.length ? (
              <p className="text-sm text-muted-foreground">{EMPTY[view]}</p>
            ) : (
              <ul className="space-y-3" aria-label="Samples">
                {samples.data.map((sample) => (
                  <li key={sample.id}>
                    <SampleRow wakeWordId={wakeWord.id} sample={sample} />
                  </li>
                ))}
              </ul>
            )}
          </TabsContent>
        </Tabs>
      </CardContent>
    </Card>
  );
}

export function SampleRow({ wakeWordId, sample }: { wakeWordId: number; sample: WakeWordSample }) {
  const review = useReviewSample(wakeWordId);
  const remove = useDeleteSample(wakeWordId);
  const { user, isAdmin } = useAuth();
  // The agent's rule: admins moderate every sample, members their own takes only.
  const mayJudge = isAdmin || (user !== null && sample.uploadedBy === user.id);
  const busy = review.isPending || remove.isPending;
  return (
    <div className="space-y-3 rounded-lg border p-3">
      <div className="flex flex-wrap items-center gap-2">
        <VerdictBadge verdict={sample.quality.verdict} />
        <Badge variant="outline">
          {sample.status === 'pending' ? 'To review' : sample.status === 'accepted' ? 'Accepted' : 'Rejected'}
        </Badge>
        {sample.source !== 'recording' && (
          <Badge variant="secondary">{sample.source === 'satellite' ? 'Satellite' : 'Crowdsourced'}</Badge>
        )}
        <span className="text-sm">
          {sample.device} · {sample.speaker}
        </span>
        <time className="text-xs text-muted-foreground" dateTime={sample.createdAt}>
          {new Date(sample.createdAt).toLocaleString()}
        </time>
      </div>
      <QualityDetails quality={sample.quality} />
      <div className="flex flex-wrap items-center gap-2">
        <audio
          controls
          preload="none"
          src={sampleAudioUrl(wakeWordId, sample.id)}
          aria-label={`Sample ${sample.id}`}
          className="h-9"
        />
        {mayJudge && (
          <>
            <Button
              size="sm"
              variant="outline"
              disabled={busy || sample.status === 'accepted'}
              onClick={() => review.mutate({ sampleId: sample.id, status: 'accepted' })}
            >
              <Check aria-hidden="true" />
              Accept
            </Button>
            <Button
              size="sm"
              variant="outline"
              disabled={busy || sample.status === 'rejected'}
              onClick={() => review.mutate({ sampleId: sample.id, status: 'rejected' })}
            >
              <X aria-hidden="true" />
              Reject
            </Button>
            <Button
              size="sm"
              variant="ghost"
              aria-label={`Delete sample ${sample.id}`}
              disabled={busy}
              onClick={() => remove.mutate(sample.id)}
            >
              <Trash2 aria-hidden="true" />
            </Button>
          </>
        )}
      </div>
      {(review.error || remove.error) && (
        <p className="text-sm text-destructive">{errorMessage(review.error ?? remove.error)}</p>
      )}
    </div>
  );
}
