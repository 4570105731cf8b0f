/**
 * An end-user frontend for the JSON flow API over real HTTP (fetch): starts a flow, fills each
 * step's fields from `values`, presses the primary action until the complete step, keeping the
 * `_zflow` cookie. For tests that run against listening servers (tracing, the cluster).
 */
export class JourneyError extends Error {
  constructor(
    readonly path: string,
    readonly status: number,
    readonly code: string,
  ) {
    super(`${path} answered ${status} ${code}`);
  }
}

interface FlowStep {
  name: string;
  type?: string;
  fields?: Array<{ name: string }>;
  actions?: Array<{ name: string; primary?: boolean }>;
}

export async function flowJourney(base: string, projectId: string, purpose: 'login' | 'register', values: Record<string, string>, maxSteps = 8): Promise<{ handoffToken: string; steps: string[] }> {
  let cookie = '';
  const steps: string[] = [];
  const send = async (path: string, body: unknown): Promise<{ id: string; step: FlowStep; handoff_token?: string }> => {
    const response = await fetch(`${base}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie: `_zflow=${cookie}` } : {}) },
      body: JSON.stringify(body),
    });
    const zflow = response.headers.getSetCookie().find((line) => line.startsWith('_zflow='));
    if (zflow) cookie = zflow.split(';')[0].slice('_zflow='.length);
    const text = await response.text();
    const json = (text ? JSON.parse(text) : {}) as { id: string; step: FlowStep; handoff_token?: string; code?: string };
    if (response.status < 200 || response.status > 299) throw new JourneyError(path.replace(/flow_\w+/, ':id'), response.status, json.code ?? '');
    steps.push(json.step?.name ?? '?');
    return json;
  };
  let flow = await send('/flow', { project_id: projectId, purpose });
  for (let i = 0; i < maxSteps && flow.step.type !== 'complete'; i++) {
    const fields: Record<string, string> = {};
    for (const field of flow.step.fields ?? []) if (values[field.name] !== undefined) fields[field.name] = values[field.name];
    const action = flow.step.actions?.find((a) => a.primary) ?? flow.step.actions?.[0];
    flow = await send(`/flow/${flow.id}/submit`, { action: action?.name, fields });
  }
  if (flow.step.type !== 'complete' || !flow.handoff_token) throw new Error(`${purpose} journey did not complete: ${steps.join(' -> ')}`);
  return { handoffToken: flow.handoff_token, steps };
}
