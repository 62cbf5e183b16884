import { z } from 'zod';
import type { DockerAdapter } from '../../adapters/docker.js';
import type { OllamaEndpointSource } from './endpoints.service.js';

/** Ollama's own port inside its container. */
const OLLAMA_PORT = 11434;
/** A service with this label is an Ollama whatever its image (`nexus.llm=ollama`). */
export const LLM_SERVICE_LABEL = 'nexus.llm';

// The parts of the Engine API's answers read here (GET /nodes, /tasks; docs.docker.com/reference/api/engine).
const portSchema = z.object({
  TargetPort: z.number().optional(),
  PublishedPort: z.number().optional(),
  PublishMode: z.string().optional(),
  Protocol: z.string().optional(),
});
const taskSchema = z.object({
  ID: z.string(),
  ServiceID: z.string(),
  NodeID: z.string().optional(),
  DesiredState: z.string().optional(),
  Status: z
    .object({
      State: z.string().optional(),
      PortStatus: z.object({ Ports: z.array(portSchema).nullish() }).nullish(),
    })
    .optional(),
});
const nodeSchema = z.object({
  ID: z.string(),
  Description: z.object({ Hostname: z.string().optional() }).optional(),
  Status: z.object({ State: z.string().optional(), Addr: z.string().optional() }).optional(),
  ManagerStatus: z.object({ Addr: z.string().optional() }).nullish(),
});

/** `ollama/ollama`, `docker.io/ollama/ollama:0.6.5@sha256:…` → true. */
export function isOllamaImage(image: string | undefined): boolean {
  if (!image) return false;
  const name = image.split('@')[0]!.replace(/:[^/:]+$/, '');
  return name === 'ollama/ollama' || name.endsWith('/ollama/ollama');
}

/** The host-mode published port that reaches Ollama: the one for 11434, else the only one. */
function hostPort(ports: readonly z.infer<typeof portSchema>[]): number | null {
  const host = ports.filter((p) => p.PublishMode === 'host' && p.PublishedPort && p.Protocol !== 'udp');
  const ollama = host.find((p) => p.TargetPort === OLLAMA_PORT) ?? (host.length === 1 ? host[0] : undefined);
  return ollama?.PublishedPort ?? null;
}

/** A node's address other nodes reach it at; a manager may report 0.0.0.0 there (moby#35437). */
function nodeAddress(node: z.infer<typeof nodeSchema>): string | null {
  let addr = node.Status?.Addr ?? '';
  if (!addr || addr === '0.0.0.0') addr = node.ManagerStatus?.Addr?.replace(/:\d+$/, '') ?? '';
  if (!addr || addr === '0.0.0.0') return null;
  return addr.includes(':') && !addr.startsWith('[') ? `[${addr}]` : addr;
}

/**
 * The fleet's Ollama endpoints, read from the swarm: every running task of a service whose image
 * is ollama/ollama (or labelled nexus.llm=ollama) that publishes a host-mode port, as
 * `http://<node address>:<published port>`. The swarm is the admins' (only they join nodes and
 * deploy services), so these addresses are on the owner's network by design and are not passed
 * through the members' outbound guard. Outside a swarm the engine refuses (503): no endpoints.
 */
export function swarmOllamaSource(docker: Pick<DockerAdapter, 'listNodes' | 'listServices' | 'listTasks'>) {
  return {
    async list() {
      const services = (await docker.listServices()).filter(
        (s) =>
          s.Spec?.Labels?.[LLM_SERVICE_LABEL] === 'ollama' ||
          isOllamaImage(
            s.Spec?.TaskTemplate && 'ContainerSpec' in s.Spec.TaskTemplate
              ? s.Spec.TaskTemplate.ContainerSpec?.Image
              : undefined,
          ),
      );
      if (services.length === 0) return [];
      const byService = new Map(services.map((s) => [s.ID, s]));
      const [tasks, nodes] = await Promise.all([
        docker.listTasks({ 'desired-state': ['running'] }),
        docker.listNodes(),
      ]);
      const nodeById = new Map<string, z.infer<typeof nodeSchema>>();
      for (const raw of nodes) {
        const n = nodeSchema.safeParse(raw);
        if (n.success) nodeById.set(n.data.ID, n.data);
      }
      const endpoints: { id: string; node: string; url: string }[] = [];
      for (const raw of tasks) {
        const parsed = taskSchema.safeParse(raw);
        if (!parsed.success) continue;
        const task = parsed.data;
        const service = byService.get(task.ServiceID);
        if (!service || task.Status?.State !== 'running' || !task.NodeID) continue;
        const node = nodeById.get(task.NodeID);
        if (!node || node.Status?.State === 'down') continue;
        const published = (service.Spec?.EndpointSpec?.Ports ?? []).map((p) => ({
          TargetPort: p.TargetPort,
          PublishedPort: p.PublishedPort,
          PublishMode: p.PublishMode,
          Protocol: p.Protocol,
        }));
        const port = hostPort(task.Status.PortStatus?.Ports ?? []) ?? hostPort(published);
        const addr = nodeAddress(node);
        if (port === null || addr === null) continue;
        endpoints.push({
          id: task.ID.slice(0, 12),
          node: node.Description?.Hostname ?? node.ID.slice(0, 12),
          url: `http://${addr}:${port}`,
        });
      }
      return endpoints;
    },
  } satisfies OllamaEndpointSource;
}
