import type { FleetNode, FleetService, FleetStatus, FleetTask } from '@nexus/agent/contract';
import type { StatusTone } from '@/lib/status-words';
import { loadCode } from '@/lib/lazy-code';

/**
 * The fleet screens' pure logic (issue 24): the words and tones they show for the engine's
 * states, and the placement constraints written into a compose file before it goes to the fleet.
 */

// ---- the swarm

/** Whether "The fleet" can be a deploy target, and if not, why (said beside the disabled choice). */
export function fleetTarget(status: FleetStatus | undefined): { available: boolean; reason: string | null } {
  if (!status) return { available: false, reason: 'Checking whether this hub is in a fleet…' };
  if (status.state !== 'active')
    return {
      available: false,
      reason: 'This hub is in no fleet yet: create or join one on Nexus Control first.',
    };
  if (!status.canManage)
    return {
      available: false,
      reason: 'This hub is a worker: deploy to the fleet from a manager hub.',
    };
  return { available: true, reason: null };
}

// ---- nodes

/** Labels everyone on the fleet uses, offered as presets in the label editor. */
export const LABEL_PRESETS = ['nexus.gpu', 'nexus.role'] as const;

const LABEL_KEY = /^[A-Za-z0-9][A-Za-z0-9._/-]*$/;

/** A label editor row: kept as text until it is saved, so a half-typed key is not lost. */
export interface LabelRow {
  key: string;
  value: string;
}

export function labelsToRows(labels: Record<string, string>): LabelRow[] {
  return Object.entries(labels)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, value]) => ({ key, value }));
}

/**
 * The rows as the engine's labels, or the first problem in words. Empty rows are dropped; a key
 * given twice is refused rather than silently keeping one of them.
 */
export function rowsToLabels(
  rows: readonly LabelRow[],
): { labels: Record<string, string> } | { error: string } {
  const labels: Record<string, string> = {};
  for (const row of rows) {
    const key = row.key.trim();
    const value = row.value.trim();
    if (key === '' && value === '') continue;
    if (key === '') return { error: `The label with value "${value}" needs a key` };
    if (key.length > 128 || !LABEL_KEY.test(key))
      return { error: `"${key}" is not a label key: letters, digits, dots, dashes and slashes` };
    if (value.length > 256) return { error: `The value of ${key} is longer than 256 characters` };
    if (key in labels) return { error: `${key} is given twice` };
    labels[key] = value;
  }
  return { labels };
}

/** A node's status for the badge: ready is good, down and disconnected bad. */
export function nodeStatusTone(status: string): StatusTone {
  if (status === 'ready') return 'good';
  if (status === 'down' || status === 'disconnected') return 'bad';
  return 'warning';
}

export function availabilityTone(availability: FleetNode['availability']): StatusTone {
  return availability === 'active' ? 'good' : 'warning';
}

/** What choosing an availability does, in words (drain is confirmed with this). */
export const AVAILABILITY_WORDS: Record<FleetNode['availability'], string> = {
  active: 'Active: takes new tasks',
  pause: 'Paused: keeps its tasks, takes no new ones',
  drain: 'Drained: its tasks move to other nodes',
};

/** 8589934592 → "8 GiB", 1610612736 → "1.5 GiB". */
export function memoryWords(bytes: number | null): string {
  if (bytes === null || !Number.isFinite(bytes) || bytes <= 0) return 'unknown';
  const gib = bytes / 1024 ** 3;
  if (gib >= 1) return `${Number(gib.toFixed(gib >= 10 ? 0 : 1))} GiB`;
  return `${Math.round(bytes / 1024 ** 2)} MiB`;
}

// ---- placement constraints

/**
 * Every constraint the nodes make possible, in the engine's own syntax: each label pair a node
 * carries, each role, each hostname. Sorted and without repeats.
 */
export function constraintOptions(nodes: readonly FleetNode[]): string[] {
  const labels = new Set<string>();
  const hosts = new Set<string>();
  for (const node of nodes) {
    for (const [key, value] of Object.entries(node.labels)) labels.add(`node.labels.${key}==${value}`);
    hosts.add(`node.hostname==${node.hostname}`);
  }
  const sorted = (set: Set<string>) => [...set].sort((a, b) => a.localeCompare(b));
  return [...sorted(labels), 'node.role==manager', 'node.role==worker', ...sorted(hosts)];
}

/** "node.labels.a==b" or "node.role != worker": the forms the engine accepts. */
const CONSTRAINT =
  /^\s*(node\.(id|hostname|role|platform\.os|platform\.arch|labels\.[A-Za-z0-9][A-Za-z0-9._/-]*)|engine\.labels\.[A-Za-z0-9][A-Za-z0-9._/-]*)\s*(==|!=)\s*\S.*$/;

export function isConstraint(text: string): boolean {
  return CONSTRAINT.test(text);
}

/** The nodes that satisfy every constraint (for "2 nodes match" beside the picker). */
export function nodesMatching(nodes: readonly FleetNode[], constraints: readonly string[]): FleetNode[] {
  return nodes.filter((node) => constraints.every((c) => nodeSatisfies(node, c)));
}

function nodeSatisfies(node: FleetNode, constraint: string): boolean {
  const match = /^\s*([^=!\s]+)\s*(==|!=)\s*(.+?)\s*$/.exec(constraint);
  if (!match) return false;
  const [, field = '', op, wanted = ''] = match;
  let actual: string | undefined;
  if (field === 'node.role') actual = node.role;
  else if (field === 'node.hostname') actual = node.hostname;
  else if (field === 'node.id') actual = node.id;
  else if (field === 'node.platform.os') actual = node.os ?? undefined;
  else if (field === 'node.platform.arch') actual = node.arch ?? undefined;
  else if (field.startsWith('node.labels.')) actual = node.labels[field.slice('node.labels.'.length)];
  else return true; // engine.labels: not known here; the engine decides.
  // The engine compares case-insensitively; a missing label never equals and always differs.
  const equal = actual !== undefined && actual.toLowerCase() === wanted.toLowerCase();
  return op === '==' ? equal : !equal;
}

/**
 * Writes the constraints into every service's `deploy.placement.constraints` of a compose file,
 * keeping what is already there (and the file's comments and layout). Throws with words when the
 * file is not a compose file with services. The YAML library is loaded only here, on a fleet
 * deploy, so the screens that merely show the fleet do not download it.
 */
export async function withPlacementConstraints(
  compose: string,
  constraints: readonly string[],
): Promise<string> {
  if (constraints.length === 0) return compose;
  const { isMap, isSeq, parseDocument } = await loadCode(() => import('yaml'));
  const doc = parseDocument(compose);
  if (doc.errors.length > 0) throw new Error(`The compose file is not valid YAML: ${doc.errors[0]?.message}`);
  const services = doc.get('services');
  if (!isMap(services) || services.items.length === 0)
    throw new Error('The compose file has no services to place');
  for (const item of services.items) {
    const name = String((item.key as { value?: unknown } | null)?.value ?? item.key);
    if (!isMap(item.value)) throw new Error(`Service ${name} is not a mapping`);
    const path = ['services', item.key, 'deploy', 'placement', 'constraints'];
    const existing = doc.getIn(path);
    const current: string[] = [];
    if (existing !== undefined) {
      if (!isSeq(existing)) throw new Error(`Service ${name}: deploy.placement.constraints is not a list`);
      for (const entry of existing.items) current.push(String((entry as { value?: unknown }).value ?? entry));
    }
    const merged = [...current, ...constraints.filter((c) => !current.includes(c))];
    doc.setIn(path, doc.createNode(merged));
  }
  return doc.toString();
}

// ---- services and tasks

/** A task's state for its badge: running good, failed/rejected bad, pending and the like a warning. */
export function taskTone(state: string): StatusTone {
  if (state === 'running' || state === 'complete') return 'good';
  if (state === 'failed' || state === 'rejected' || state === 'orphaned') return 'bad';
  if (state === 'shutdown' || state === 'remove') return 'neutral';
  return 'warning';
}

/**
 * Why a task is not running, in words. The engine's scheduler says "no suitable node (scheduling
 * constraints not satisfied on 2 nodes)"; the service's own constraints say which, so that is
 * what is shown. Null when there is nothing to explain.
 */
export function taskReason(task: FleetTask, service: Pick<FleetService, 'constraints'>): string | null {
  const text = task.error ?? (task.state === 'running' ? null : task.message);
  if (!text) return null;
  if (/no suitable node/i.test(text)) {
    if (/constraint/i.test(text) && service.constraints.length > 0)
      return `No node matches: ${service.constraints.join(', ')}`;
    if (/insufficient resources/i.test(text)) return 'No node has the CPU or memory it reserves';
    if (/port/i.test(text)) return 'No node has its published port free';
    return `No node can run it (${text})`;
  }
  if (/pending task scheduling/i.test(text)) return 'Waiting for a node';
  if (/no such image|manifest unknown|pull access denied/i.test(text))
    return `The image could not be pulled: ${text}`;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** The tasks that matter now: those the engine wants running (older, shut-down ones are history). */
export function currentTasks(service: FleetService): FleetTask[] {
  const wanted = service.tasks.filter((t) => t.desiredState !== 'shutdown' && t.desiredState !== 'remove');
  return wanted.sort(
    (a, b) => (a.slot ?? 0) - (b.slot ?? 0) || (a.nodeHostname ?? '').localeCompare(b.nodeHostname ?? ''),
  );
}

/** "2/3 running", or "1 running (global)". */
export function replicaWords(service: Pick<FleetService, 'mode' | 'replicas' | 'running'>): string {
  if (service.mode === 'global' || service.replicas === null) return `${service.running} running (global)`;
  return `${service.running}/${service.replicas} running`;
}

export interface UpdateProgress {
  label: string;
  tone: StatusTone;
  /** Still replacing tasks: the screen shows a busy indicator and polls fast. */
  active: boolean;
  /** 0–100 when the number of tasks on the new image is known, else null. */
  percent: number | null;
}

/** The engine's UpdateStatus as a label, a tone and (while updating) how far it got. */
export function updateProgress(service: FleetService): UpdateProgress | null {
  const status = service.updateStatus;
  if (!status) return null;
  const tasks = currentTasks(service);
  const onImage = tasks.filter((t) => t.image === service.image && t.state === 'running').length;
  const percent =
    tasks.length > 0 ? Math.round((100 * onImage) / Math.max(tasks.length, service.replicas ?? 0)) : null;
  switch (status.state) {
    case 'updating':
      return { label: 'Updating', tone: 'warning', active: true, percent };
    case 'paused':
      return { label: 'Update paused', tone: 'bad', active: false, percent };
    case 'completed':
      return { label: 'Update completed', tone: 'good', active: false, percent: 100 };
    case 'rollback_started':
      return { label: 'Rolling back', tone: 'warning', active: true, percent: null };
    case 'rollback_paused':
      return { label: 'Rollback paused', tone: 'bad', active: false, percent: null };
    case 'rollback_completed':
      return { label: 'Rolled back', tone: 'neutral', active: false, percent: null };
    default:
      return { label: status.state, tone: 'neutral', active: false, percent: null };
  }
}
