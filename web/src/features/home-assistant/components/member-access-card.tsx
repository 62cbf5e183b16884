import { useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { CheckCircle2, Plus, Save, X, XCircle } from 'lucide-react';
import { USER_SERVICE_DOMAINS, type HaEntity, type HaMemberAccess } from '@nexus/agent/contract';
import { Alert, AlertDescription, AlertTitle } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Checkbox } from '@/components/ui/checkbox';
import { Input } from '@/components/ui/input';
import { Label } from '@/components/ui/label';
import { Skeleton } from '@/components/ui/skeleton';
import { Spinner } from '@/components/ui/spinner';
import { errorMessage } from '@/lib/request';
import {
  haEntitiesQueryOptions,
  haMemberAccessQueryOptions,
  useSaveMemberAccess,
} from '@/data/home-assistant';
import { domainLabel } from '../entity-logic';

const memberDomains: readonly string[] = USER_SERVICE_DOMAINS;

/**
 * Admins only (the agent answers members 403): which Home Assistant domains and entities members
 * may control. Domains offered are the everyday ones present in Home Assistant; entities are
 * picked by name or id.
 */
export function MemberAccessCard() {
  const access = useQuery(haMemberAccessQueryOptions());
  // Here, not in the form: the form restarts from the saved list after a save, the outcome stays.
  const save = useSaveMemberAccess();
  // Entities are optional here: without a connection the list can still be read and edited.
  const entities = useQuery({ ...haEntitiesQueryOptions(), retry: false });
  return (
    <Card>
      <CardHeader>
        <CardTitle>
          <h2>Member access</h2>
        </CardTitle>
        <CardDescription>
          What household members (not administrators) may switch in Home Assistant, from the console and from
          their flows. Lights only until you allow more: switches, covers and scripts can drive heaters,
          garage doors and anything an automation does. Area and device targets stay for administrators.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {access.data ? (
          <MemberAccessForm
            key={JSON.stringify(access.data)}
            saved={access.data}
            entities={entities.data?.entities ?? []}
            save={save}
          />
        ) : access.error ? (
          <Alert variant="destructive">
            <XCircle aria-hidden="true" />
            <AlertTitle>Couldn&apos;t read member access</AlertTitle>
            <AlertDescription>{errorMessage(access.error) ?? access.error.message}</AlertDescription>
          </Alert>
        ) : (
          <div aria-busy="true" className="grid gap-2">
            <span className="sr-only">Loading member access</span>
            <Skeleton className="h-24 w-full" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}

function MemberAccessForm({
  saved,
  entities,
  save,
}: {
  saved: HaMemberAccess;
  entities: HaEntity[];
  save: ReturnType<typeof useSaveMemberAccess>;
}) {
  const id = useId();
  const [domains, setDomains] = useState<string[]>(saved.domains);
  const [chosen, setChosen] = useState<string[]>(saved.entities);
  const [pick, setPick] = useState('');

  const present = new Set(entities.map((e) => e.domain));
  // Everyday domains Home Assistant has, plus any already allowed (so they can be unticked).
  const offered = memberDomains.filter((d) => present.has(d) || domains.includes(d));
  const pickable = entities
    .filter((e) => memberDomains.includes(e.domain) && !chosen.includes(e.entity_id))
    .sort((a, b) => a.entity_id.localeCompare(b.entity_id));
  const byId = new Map(entities.map((e) => [e.entity_id, e]));
  const pickedId = pick.trim();
  const pickValid =
    /^[a-z0-9_]+\.[a-z0-9_]+$/.test(pickedId) &&
    memberDomains.includes(pickedId.slice(0, pickedId.indexOf('.'))) &&
    !chosen.includes(pickedId);

  const toggleDomain = (domain: string, on: boolean) =>
    setDomains((list) => (on ? [...list, domain] : list.filter((d) => d !== domain)));
  const addEntity = () => {
    if (!pickValid) return;
    setChosen((list) => [...list, pickedId]);
    setPick('');
  };
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate({ domains, entities: chosen });
  };

  return (
    <form className="grid gap-5" onSubmit={onSubmit} aria-label="Member access">
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Every entity of these domains</legend>
        {offered.length === 0 ? (
          <p className="text-sm text-muted-foreground">
            Home Assistant has no lights, switches, covers, climates, media players, scenes or scripts yet.
          </p>
        ) : (
          <div className="flex flex-wrap gap-x-6 gap-y-2">
            {offered.map((domain) => (
              <div key={domain} className="flex items-center gap-2">
                <Checkbox
                  id={`${id}-domain-${domain}`}
                  checked={domains.includes(domain)}
                  onCheckedChange={(value) => toggleDomain(domain, value === true)}
                />
                <Label htmlFor={`${id}-domain-${domain}`} className="font-normal">
                  {domainLabel(domain)}
                </Label>
              </div>
            ))}
          </div>
        )}
      </fieldset>

      <div className="grid gap-2">
        <Label htmlFor={`${id}-entity`}>Also these entities</Label>
        <div className="flex gap-2">
          <Input
            id={`${id}-entity`}
            list={`${id}-entities`}
            value={pick}
            onChange={(e) => setPick(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                addEntity();
              }
            }}
            placeholder="switch.coffee_maker"
            autoComplete="off"
            spellCheck={false}
          />
          <datalist id={`${id}-entities`}>
            {pickable.map((e) => (
              <option key={e.entity_id} value={e.entity_id}>
                {e.name}
              </option>
            ))}
          </datalist>
          <Button type="button" variant="outline" onClick={addEntity} disabled={!pickValid}>
            <Plus aria-hidden="true" />
            Add
          </Button>
        </div>
        <p className="text-xs text-muted-foreground">
          An entity id of a {memberDomains.map(domainLabel).join(', ').toLowerCase()} entity.
        </p>
        {chosen.length === 0 ? (
          <p className="text-sm text-muted-foreground">No single entities allowed.</p>
        ) : (
          <ul className="grid gap-1" aria-label="Allowed entities">
            {chosen.map((entityId) => (
              <li
                key={entityId}
                className="flex items-center justify-between gap-2 rounded-md border px-3 py-1.5"
              >
                <span className="min-w-0 truncate text-sm">
                  {byId.get(entityId)?.name ?? entityId}{' '}
                  <span className="font-mono text-xs text-muted-foreground">{entityId}</span>
                </span>
                <Button
                  type="button"
                  variant="ghost"
                  size="icon"
                  aria-label={`Remove ${entityId}`}
                  onClick={() => setChosen((list) => list.filter((e) => e !== entityId))}
                >
                  <X aria-hidden="true" />
                </Button>
              </li>
            ))}
          </ul>
        )}
      </div>

      {save.error ? (
        <Alert variant="destructive">
          <XCircle aria-hidden="true" />
          <AlertTitle>Not saved</AlertTitle>
          <AlertDescription>{errorMessage(save.error) ?? save.error.message}</AlertDescription>
        </Alert>
      ) : save.isSuccess ? (
        <Alert variant="success">
          <CheckCircle2 aria-hidden="true" />
          <AlertTitle>Saved</AlertTitle>
          <AlertDescription>Members may now control what is listed here.</AlertDescription>
        </Alert>
      ) : null}
      <div>
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? <Spinner /> : <Save aria-hidden="true" />}
          {save.isPending ? 'Saving…' : 'Save member access'}
        </Button>
      </div>
    </form>
  );
}
